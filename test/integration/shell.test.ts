// The shell/ helpers against the built binary: bash completion and the tmux status segment.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { type Sandbox, REPO_ROOT, SPEX_BIN, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { processIdentity } from "../../lib/proc";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function bash(script: string): string {
  const r = spawnSync("bash", ["-c", script], { cwd: sb.repo, env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` }, encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}

test("bash completion offers verbs from the registry and the project's sessions", () => {
  sb = sandbox();
  const rec = seedRecord(sb.home, sb.repo, { name: "auth-fixer" });
  const complete = (words: string) => bash(`. '${join(REPO_ROOT, "shell", "spex.bash")}'; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`);
  expect(complete("spex session sh").split("\n")).toEqual(["show"]);
  expect(complete("sessions st").split("\n")).toEqual(["stop"]);
  expect(complete("spex session show ''").split("\n")).toEqual(expect.arrayContaining([rec.session_id.slice(0, 8), "auth-fixer", "--json"]));
});

test("the tmux status segment counts working, asking and review sessions, and says nothing when all are quiet", () => {
  sb = sandbox();
  const script = join(REPO_ROOT, "shell", "tmux-status.sh");
  seedRecord(sb.home, sb.repo, { status: "idle" });
  expect(bash(`sh '${script}'`)).toBe("");
  // Online needs a live agent with its start identity: this test process stands in for it.
  const me = processIdentity(process.pid)!;
  seedRecord(sb.home, sb.repo, { status: "active", agent_pid: String(me.pid), agent_start: me.start });
  seedRecord(sb.home, sb.repo, { status: "asking", agent_pid: String(me.pid), agent_start: me.start });
  seedRecord(sb.home, sb.repo, { status: "awaiting", proposal: "merge" });
  expect(bash(`sh '${script}'`)).toBe("spex 1 working · 1 asking · 1 review");
});

const zsh = spawnSync("sh", ["-c", "command -v zsh"], { encoding: "utf8" }).stdout.trim();
test.skipIf(!zsh)("zsh runs the same completion through its bash bridge (shell-init.sh)", () => {
  sb = sandbox();
  const r = spawnSync(zsh, ["-c", `. '${join(REPO_ROOT, "shell", "shell-init.sh")}'; COMP_WORDS=(sessions st); COMP_CWORD=1; _spex_complete; print -l $COMPREPLY`], {
    cwd: sb.repo,
    env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` },
    encoding: "utf8",
  });
  expect(r.stdout.trim()).toBe("stop");
});
