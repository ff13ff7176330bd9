// The last step of a merge moves the main branch only from where the merge
// was planned: someone who moved it in between (a commit in the main
// checkout, a push into this repository) is never overwritten.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { landOnBranch } from "../../lib/review/land";
import { type Sandbox, sandbox } from "../support/sandbox";
import { checkoutPrint, commitFiles, refOf } from "../support/review";

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  sb = sandbox();
  env = process.env;
  process.env = { ...sb.env };
});
afterEach(() => {
  process.env = env;
  sb.cleanup();
});

function sideCommit(): string {
  // A commit on a side branch, made without touching main.
  sb.git(["checkout", "-q", "-b", "side"]);
  const c = commitFiles(sb, sb.repo, { "side.txt": "side\n" }, "side");
  sb.git(["checkout", "-q", "main"]);
  return c;
}

test("a main branch that moved since the plan is reported as moved and left where the other writer put it", () => {
  const planned = refOf(sb, "refs/heads/main");
  const landing = sideCommit();
  sb.git(["checkout", "-q", "--detach"]); // nobody has main out: the ref moves by compare-and-swap
  const theirs = commitFiles(sb, sb.repo, { "theirs.txt": "theirs\n" }, "someone else's commit");
  sb.git(["update-ref", "refs/heads/main", theirs]);
  expect(landOnBranch(sb.repo, "main", planned, landing, "test")).toEqual({ kind: "moved" });
  expect(refOf(sb, "refs/heads/main")).toBe(theirs);
});

test("with main checked out, a stale plan is reported as moved and the checkout is untouched", () => {
  const planned = refOf(sb, "refs/heads/main");
  const landing = sideCommit();
  const theirs = commitFiles(sb, sb.repo, { "theirs.txt": "theirs\n" }, "committed in the checkout meanwhile");
  writeFileSync(join(sb.repo, "untracked.txt"), "mine\n");
  const before = checkoutPrint(sb, sb.repo);
  expect(landOnBranch(sb.repo, "main", planned, landing, "test")).toEqual({ kind: "moved" });
  expect(refOf(sb, "refs/heads/main")).toBe(theirs);
  expect(checkoutPrint(sb, sb.repo)).toEqual(before);
});
