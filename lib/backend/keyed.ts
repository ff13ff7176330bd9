// Keyed creates: the Idempotency-Key header names the request, the session id
// derives from it (lib/create), and requests with the same key run one after
// another here, so a concurrent retry is answered as a replay of the first
// instead of racing it for the same worktree and branch.
import type { CreateResult } from "../create";
import { httpError } from "./http";

/** 1–128 characters of visible ASCII (0x21–0x7E). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

export function checkIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined) {
    throw httpError("idempotency_key_required", "POST /api/sessions needs an Idempotency-Key header", 400, "send a fresh random key per create; resend the same key to retry it safely");
  }
  const key = Array.isArray(header) ? header.join(",") : header;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw httpError("idempotency_key_invalid", "the Idempotency-Key must be 1 to 128 visible ASCII characters (no spaces)", 400, "use a UUID");
  }
  return key;
}

export class KeyedCreates {
  private running = new Map<string, Promise<unknown>>();

  async run(key: string, create: () => Promise<CreateResult>): Promise<CreateResult> {
    const before = this.running.get(key) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(create);
    this.running.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.running.get(key) === mine) this.running.delete(key);
    }
  }
}
