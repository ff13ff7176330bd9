// SPEX_HOME is the user's alone (DESIGN.md §13, another local user): the
// prompts, message texts and screens the backend guards with its token must
// not be readable from the files either, and a SPEX_HOME someone else owns or
// may write is refused before anything is put there.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { switchesUser } from "./backend-other-user";

const NOBODY = 65534;

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

/** Run `sh -c script` as uid nobody; its output and exit code. */
function asNobody(script: string): { code: number; out: string } {
  const r = spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--", "sh", "-c", script], { encoding: "utf8" });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

test.skipIf(!switchesUser())("another local user reads no prompt, message or note from SPEX_HOME, even one an older spex left open (0755)", () => {
  // A home others may enter (as on many distributions), and a SPEX_HOME made 0755 as older versions did.
  chmodSync(sb.dir, 0o755);
  chmodSync(sb.home, 0o755);
  const made = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "the secret is hunter2"]);
  expect(made.code).toBe(0);
  const id = JSON.parse(made.stdout).session_id as string;
  expect(sb.spex(["session", "send", id, "the second secret is swordfish"]).code).toBe(0);
  expect(sb.spex(["session", "park", "--note", "the third secret is xyzzy"], { env: { SPEX_SESSION_ID: id } }).code).toBe(0);
  // The files are there for their owner …
  const key = readdirSync(join(sb.home, "projects"))[0]!;
  const session = join(sb.home, "projects", key, "sessions", id);
  expect(readdirSync(session)).toEqual(expect.arrayContaining(["prompt", "session.json", "timeline.ndjson"]));
  // … and nobody else gets at them, nor at the names of the projects.
  const read = asNobody(`cat '${session}/prompt' '${session}/timeline.ndjson' '${session}/session.json'`);
  expect(read.code).not.toBe(0);
  expect(read.out).not.toContain("hunter2");
  expect(read.out).not.toContain("swordfish");
  expect(read.out).not.toContain("xyzzy");
  const list = asNobody(`ls '${sb.home}/projects'`);
  expect(list.code).not.toBe(0);
  expect(statSync(sb.home).mode & 0o777).toBe(0o700);
});

test("a SPEX_HOME another user owns, or that others may write, is refused (spex_home_unsafe) and nothing is put in it", () => {
  const cases: [string, (dir: string) => void][] = [
    ["writable by others", (dir) => chmodSync(dir, 0o777)],
    ["writable by the group", (dir) => chmodSync(dir, 0o775)],
  ];
  if (process.getuid?.() === 0) cases.push(["owned by another user", (dir) => chownSync(dir, NOBODY, NOBODY)]);
  for (const [what, plant] of cases) {
    const home = join(sb.dir, `home-${what.replace(/\W+/g, "-")}`);
    mkdirSync(home);
    plant(home);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "a task"], { env: { SPEX_HOME: home } });
    expect({ what, code: r.code, error: JSON.parse(r.stdout).error?.code }).toEqual({ what, code: 1, error: "spex_home_unsafe" });
    expect({ what, entries: readdirSync(home) }).toEqual({ what, entries: [] });
    expect({ what, worktrees: sb.git(["worktree", "list", "--porcelain"]).match(/^worktree /gm)?.length }).toEqual({ what, worktrees: 1 });
  }
});
