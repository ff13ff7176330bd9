// A listing that saw a row `starting` settles its fence before showing it; a
// reader beside it may settle the same fence first. The listing must then
// count the row as settled and read it again (it showed `starting` for a
// session already working: the two-readers test of launch.test.ts caught it
// under load).
import { afterEach, expect, test } from "bun:test";
import { recoverStaleFences } from "../../lib/launch/stale";
import { projectStore } from "../../lib/store";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

test("a fence another reader settled between the listing and its settling counts as settled (the row is read again)", async () => {
  sb = sandbox();
  // What the other reader left: the record published, no fence any more.
  const rec = seedRecord(sb.home, sb.repo, { status: "active", harness: "shell" });
  expect(await recoverStaleFences(projectStore(sb.repo, sb.home), [rec.session_id])).toEqual([rec.session_id]);
});
