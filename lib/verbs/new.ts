// `spex session new` as a function: create (through a served backend when one
// owns the project, else in-process) and file the session in its group. The
// CLI and the MCP tool session_new both land here.
import { type AuthorityCreateInput, createWithAuthority } from "../backend";
import { fileSessions, requireGroup } from "../coord";
import type { CreateResult } from "../create";
import { SpexError } from "../errors";
import { shortId } from "../naming";
import type { ProjectStore } from "../store";

export interface NewSessionInput extends AuthorityCreateInput {
  /** A group to file the session in ("" or absent: the root); it must exist. */
  group?: string;
}

export interface NewSession {
  result: CreateResult & { via: string };
  /** The group the session was filed in ("" is the root). */
  group: string;
  /** What `new --json` prints: the record, the full prompt, readiness and the group. */
  json: Record<string, unknown>;
}

export async function newSession(store: ProjectStore, input: NewSessionInput): Promise<NewSession> {
  const { group: wanted, ...create } = input;
  // A prompt of blanks alone says nothing to the agent: refused like an empty one.
  if (create.prompt.trim() === "") {
    throw new SpexError("usage", create.prompt ? "the prompt is only whitespace" : "the prompt is empty", { hint: "say what the agent should do", exitCode: 2, httpStatus: 400 });
  }
  // An unknown group refuses before anything is made.
  const group = wanted === undefined || wanted === "" ? "" : requireGroup(store, wanted);
  const result = await createWithAuthority(store, create);
  if (group !== "") {
    // The session exists now; a group removed in the meantime must say so rather than hide it.
    await fileSessions(store, group, [result.record.session_id]).catch((e: unknown) => {
      throw new SpexError((e as SpexError).code ?? "internal_error", `session ${shortId(result.record.session_id, 8)} was created in the root but not filed in ${group}: ${(e as Error).message}`, {
        hint: `file it with: spex group file GROUP ${shortId(result.record.session_id, 8)}`,
      });
    });
  }
  return { result, group, json: { ...result.record, prompt: result.prompt, ready: result.ready, group } };
}
