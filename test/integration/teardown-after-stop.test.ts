// What a stop leaves behind must never block the next step: a stopped record
// forgets its leaf, and a resume the launch would refuse changes nothing.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { type Sandbox, sandbox } from "../support/sandbox";
import { json, recordFile, seedLive } from "../support/teardown";
import { processIdentity } from "../../lib/proc";
import { projectStore, sessionPaths } from "../../lib/store";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

test("after stop the record and agent.pid name no pid, so a process that later wears that number is never taken for the leaf", () => {
  const s = seedLive(sb, { agent: "owned" });
  expect(sb.spex(["session", "stop", s.id]).code).toBe(0);
  const stopped = json(sb.spex(["session", "show", s.id, "--json"]).stdout).record;
  expect(stopped).toMatchObject({ stopped: true, agent_pid: "", agent_start: "" });
  expect(existsSync(sessionPaths(projectStore(sb.repo, sb.home), s.id).agentPid)).toBe(false);
  const r = sb.spex(["session", "close", s.id, "--json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
});

test("resume --force that the launch would refuse (branch gone) stops nothing and leaves the record as it was", () => {
  const s = seedLive(sb, { agent: "owned", fields: { harness: "shell", launcher: "shell" } });
  // The branch vanishes under the session (deleted from the main checkout after detaching the worktree's HEAD).
  sb.git(["checkout", "-q", "--detach"], s.worktree);
  sb.git(["branch", "-D", s.branch]);
  const before = readFileSync(recordFile(sb, s.id));
  const r = sb.spex(["session", "resume", s.id, "--force", "--json"]);
  expect(r.code).toBe(1);
  expect(json(r.stdout).error.code).toBe("branch_missing");
  expect(readFileSync(recordFile(sb, s.id))).toEqual(before);
  expect(processIdentity(s.pid)).toBeDefined();
});
