// git refuses a repository another user owns (a repository mounted into a
// container, one reached as root): every git call fails with "detected
// dubious ownership". spex says so with repo_dubious_ownership and the git
// line that trusts it, quoted, instead of calling it a bug of its own.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const asRoot = process.getuid?.() === 0;

test.skipIf(!asRoot)("session new in a repository another user owns is refused with repo_dubious_ownership, not internal_error; the pasted git line lets it through; merge and diff do not call the branch missing", () => {
  sb = sandbox();
  const global = join(sb.dir, "gitconfig");
  writeFileSync(global, "");
  sb.env.GIT_CONFIG_GLOBAL = global;
  expect(spawnSync("chown", ["-R", "nobody", sb.repo]).status).toBe(0);

  const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "hi"]);
  expect(r.code).toBe(1);
  const error = JSON.parse(r.stdout).error;
  expect(error.code).toBe("repo_dubious_ownership");
  expect(r.stderr).not.toContain("internal_error");

  const line = /`([^`]+)`/.exec(error.hint)![1]!;
  const pasted = spawnSync("sh", ["-c", line], { env: sb.env, encoding: "utf8" });
  expect({ code: pasted.status, stderr: pasted.stderr }).toEqual({ code: 0, stderr: "" });
  const made = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "hi"]);
  expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: "" });

  // Trusted no more: merge and diff say why git answers nothing, not that the session's branch is gone.
  writeFileSync(global, "");
  const id = JSON.parse(made.stdout).session_id as string;
  for (const verb of ["merge", "diff"]) {
    const refused = sb.spex(["session", verb, id, "--json"]);
    expect({ verb, code: refused.code, error: JSON.parse(refused.stdout).error.code }).toEqual({ verb, code: 1, error: "repo_dubious_ownership" });
  }
});
