// `spex session new` as a function: create through a served backend when one
// owns the project, else in-process. The create itself files the session in
// its group (the one asked for, else its creator's) before its agent starts.
// The CLI and the MCP tool session_new both land here.
import { type AuthorityCreateInput, createWithAuthority } from "../backend";
import { type CreateResult, refuseBlankPrompt } from "../create";
import type { ProjectStore } from "../store";

export type NewSessionInput = AuthorityCreateInput;

export interface NewSession {
  result: CreateResult & { via: string };
  /** The group the session was filed in ("" is the root). */
  group: string;
  /** What `new --json` prints: the record, the full prompt, readiness, the group and the place in the launch queue. */
  json: Record<string, unknown>;
}

export async function newSession(store: ProjectStore, input: NewSessionInput): Promise<NewSession> {
  // Refused here too, before a served backend is asked.
  refuseBlankPrompt(input.prompt);
  const result = await createWithAuthority(store, input);
  return {
    result,
    group: result.group,
    json: { ...result.record, prompt: result.prompt, ready: result.ready, group: result.group, queuePosition: result.queuePosition, ...(result.included ? { included: result.included } : {}) },
  };
}
