// The backend proves it holds the instance token without the token ever
// travelling (issue 11): the CLI sends a fresh random challenge on
// `GET /api/instance`, the server answers an HMAC of it keyed by the token.
// The server's own port is inside the MAC, so a listener elsewhere that relays
// the challenge to the real backend gets a proof for the wrong port.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A challenge is 32 to 128 lowercase hex digits. */
export const CHALLENGE = /^[0-9a-f]{32,128}$/;

export function newChallenge(): string {
  return randomBytes(32).toString("hex");
}

/** What the token holder listening on `port` answers to `challenge`. */
export function instanceProof(token: string, challenge: string, port: number): string {
  return createHmac("sha256", token).update(`spex-instance-proof-v1\n${port}\n${challenge}`).digest("hex");
}

export function proofMatches(presented: unknown, token: string, challenge: string, port: number): boolean {
  if (typeof presented !== "string") return false;
  const want = Buffer.from(instanceProof(token, challenge, port));
  const got = Buffer.from(presented);
  return got.length === want.length && timingSafeEqual(got, want);
}
