// Issue 28.1: a newcomer's first `session new` on a machine without Claude Code.
// The refusal must name the launchers that do run here and how to use one.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, madeBySpex, sandbox } from "../support/sandbox";
import { whichSync } from "../../lib/launch/launcher";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

/** A PATH holding git, tmux and the shells only: no agent CLI on it. */
function barePath(s: Sandbox): string {
  const dir = join(s.dir, "bare-bin");
  mkdirSync(dir);
  for (const program of ["git", "tmux", "sh", "bash", "env", "ps"]) {
    const found = whichSync(program);
    if (found) symlinkSync(found, join(dir, program));
  }
  return dir;
}

describe("the first session new without Claude Code", () => {
  test("the default launcher's refusal names the launchers that run here, --launcher shell and defaultLauncher", () => {
    sb = sandbox();
    const env = { PATH: barePath(sb), SHELL: whichSync("bash")! };
    const before = madeBySpex(sb);
    const r = sb.spex(["session", "new", "fix the [[auth]] token refresh bug"], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the default launcher "claude" runs "claude"');
    expect(r.stderr).toContain("launchers that run here: shell");
    expect(r.stderr).toContain("`--launcher shell`");
    expect(r.stderr).toContain('"defaultLauncher": "shell"');
    expect(r.stderr).toContain("[launcher_unresolvable]");
    const json = sb.spex(["session", "new", "--json", "fix the [[auth]] token refresh bug"], { env });
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: "launcher_unresolvable", launcher: "claude", available: ["shell"] });
    expect(madeBySpex(sb)).toEqual(before);
  });

  test("an unknown launcher name lists the ones that run", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { tests: { harness: "shell", command: "sh -c 'make test' run" } } }));
    const r = sb.spex(["session", "new", "--launcher", "tset", "x"], { env: { PATH: barePath(sb), SHELL: whichSync("bash")! } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no launcher named "tset"');
    expect(r.stderr).toContain("launchers that run here: shell, tests");
  });
});
