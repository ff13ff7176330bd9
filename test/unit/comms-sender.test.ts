// Who a message is from: a session of this project, a free-form name, or the
// user; a closed session stays refused under its id.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSender, revokeSender } from "../../lib/comms";
import { SpexError } from "../../lib/errors";
import { type ProjectStore, projectStore } from "../../lib/store";
import { seedRecord } from "../support/records";
import { cleanEnv, makeRepo } from "../support/sandbox";

let dir: string;
let store: ProjectStore;
let boss: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "spex-sender-"));
  const repo = makeRepo(join(dir, "repo"), cleanEnv());
  store = projectStore(repo, join(dir, "home"));
  boss = seedRecord(store.home, repo, { name: "boss" }).session_id;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as SpexError).code;
  }
  return "ok";
};

describe("resolveSender", () => {
  test("no --from and no session identity is the user", () => {
    expect(resolveSender(store, undefined, {})).toEqual({ kind: "user" });
  });

  test("SPEX_SESSION_ID of a session here attributes the message to it", () => {
    expect(resolveSender(store, undefined, { SPEX_SESSION_ID: boss })).toEqual({ kind: "session", id: boss });
  });

  test("SPEX_SESSION_ID of another project's session becomes a plain name", () => {
    expect(resolveSender(store, undefined, { SPEX_SESSION_ID: "abcdef12-0000-4000-8000-000000000000" })).toEqual({ kind: "name", name: "session abcdef12" });
  });

  test("--from a session selector or a free-form name", () => {
    expect(resolveSender(store, "boss")).toEqual({ kind: "session", id: boss });
    expect(resolveSender(store, "nightly-ci")).toEqual({ kind: "name", name: "nightly-ci" });
  });

  test("--from an unknown full session id is refused rather than taken as a name", () => {
    expect(codeOf(() => resolveSender(store, "abcdef12-0000-4000-8000-000000000000"))).toBe("sender_unknown");
  });

  test("a revoked session keeps its identity, so the send can refuse it", () => {
    const gone = "fedcba98-0000-4000-8000-000000000000";
    revokeSender(store, gone);
    expect(resolveSender(store, gone)).toEqual({ kind: "session", id: gone });
    expect(resolveSender(store, undefined, { SPEX_SESSION_ID: gone })).toEqual({ kind: "session", id: gone });
  });
});
