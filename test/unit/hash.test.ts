// lib/hash.ts replaces node:crypto on the start path; project keys, lock names
// and trust hashes are made from its digests, so they must be the same bytes.
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { randomHex, randomId, sha256Hex } from "../../lib/hash";

test("sha256Hex is node:crypto's SHA-256 of the UTF-8 text, for any text", () => {
  for (const text of ["", "x", "/home/dev/repo", "a\u0000b", "ünïcødé ✓ 🚀", "x".repeat(100_000)]) {
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
  }
});

test("randomHex gives that many random bytes as hex; randomId a v4 UUID", () => {
  expect(randomHex(6)).toMatch(/^[0-9a-f]{12}$/);
  expect(randomHex(6)).not.toBe(randomHex(6));
  expect(randomId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
