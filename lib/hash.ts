// Hashes and random tokens without node:crypto in the compiled binary: Bun
// loads that module's JavaScript on first import (~25 ms of CPU, more than
// the rest of a verb's start together), while Bun's own hasher and the Web
// Crypto global cost nothing to reach. Node gets node:crypto, loaded on the
// first hash. Digests are the same bytes either way (project keys and lock
// names depend on it).

type NodeCrypto = typeof import("node:crypto");
let nodeCrypto: NodeCrypto | undefined;

/** SHA-256 of the text's UTF-8 bytes (or of the bytes given), lower-case hex. */
export function sha256Hex(text: string | Uint8Array): string {
  if (typeof Bun !== "undefined") return new Bun.CryptoHasher("sha256").update(text).digest("hex");
  // A require the Bun bundle keeps lazy; only Node reaches it.
  nodeCrypto ??= require("node:crypto") as NodeCrypto;
  return nodeCrypto.createHash("sha256").update(text).digest("hex");
}

/** `bytes` random bytes as lower-case hex (a nonce, a temporary name). */
export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const b of buf) out += b.toString(16).padStart(2, "0");
  return out;
}

/** A random (version 4) UUID. */
export function randomId(): string {
  return crypto.randomUUID();
}
