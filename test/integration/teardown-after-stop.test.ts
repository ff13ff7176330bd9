// What a stop leaves behind must never block the next step: a stopped record
// forgets its leaf, and a resume the launch would refuse changes nothing.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

test("close retires a create receipt left behind, so it can never claim a later session's names", () => {
  const s = seedLive(sb, { agent: "dead", tmux: false });
  const store = projectStore(sb.repo, sb.home);
  // A receipt whose best-effort retirement failed after the record was published.
  mkdirSync(store.receiptsDir, { recursive: true });
  const receipt = join(store.receiptsDir, `${s.id}.json`);
  writeFileSync(receipt, JSON.stringify({ id: s.id, worktree: s.worktree, branch: s.branch, tmuxSocket: "", tmuxSession: "", owner: { pid: 0, start: "", boot: "" }, createdAt: "" }));
  expect(sb.spex(["session", "close", s.id]).code).toBe(0);
  expect(existsSync(receipt)).toBe(false);
});
