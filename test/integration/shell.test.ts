// The shell/ helpers against the built binary: bash completion and the tmux status segment.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Sandbox, REPO_ROOT, SPEX_BIN, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { processIdentity } from "../../lib/proc";
import { TAB_ENV } from "../../bench/startup";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function bash(script: string): string {
  const r = spawnSync("bash", ["-c", script], { cwd: sb.repo, env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` }, encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}

const zsh = spawnSync("sh", ["-c", "command -v zsh"], { encoding: "utf8" }).stdout.trim();
const fish = spawnSync("sh", ["-c", "command -v fish"], { encoding: "utf8" }).stdout.trim();

/**
 * A `spex` first on PATH that notes the JavaScriptCore settings it was started
 * with (one line a run), then runs the built binary: what the shell helpers
 * hand the process they start.
 */
function notingSpex(s: Sandbox): { path: string; seen(): string[] } {
  const dir = join(s.dir, "noting-bin");
  const log = join(s.dir, "jsc-seen");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "spex"), `#!/bin/sh\necho "warm-up \${BUN_JSC_useWarmUpMarkedBlocks-unset}, JIT \${BUN_JSC_useJIT-unset}" >> '${log}'\nexec '${SPEX_BIN}' "$@"\n`);
  chmodSync(join(dir, "spex"), 0o755);
  return { path: `${dir}:${s.env.PATH}`, seen: () => readFileSync(log, "utf8").trim().split("\n") };
}

/** What a Tab sets (bench/startup.ts measures completion with the same), as notingSpex prints it. */
const TAB_SEEN = `warm-up ${TAB_ENV.BUN_JSC_useWarmUpMarkedBlocks}, JIT ${TAB_ENV.BUN_JSC_useJIT}`;

test("a Tab starts spex with no JIT and no heap warm-up thread, in bash, zsh and fish, and still completes", () => {
  sb = sandbox();
  // A name starting past `f`: no short id (hex) completes from its first letter too.
  seedRecord(sb.home, sb.repo, { name: "quiet-fixer" });
  const spex = notingSpex(sb);
  const env = { ...sb.env, PATH: spex.path };
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: sb.repo, env, encoding: "utf8" }).stdout.trim();
  expect(run("bash", ["-c", `. '${join(REPO_ROOT, "shell", "spex.bash")}'; COMP_WORDS=(spex session show q); COMP_CWORD=3; _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`])).toBe("quiet-fixer");
  expect(spex.seen()).toEqual([TAB_SEEN]);
  if (zsh) {
    expect(run(zsh, ["-c", `. '${join(REPO_ROOT, "shell", "shell-init.sh")}'; COMP_WORDS=(sessions st); COMP_CWORD=1; _spex_complete; print -l $COMPREPLY`])).toBe("stop");
    expect(spex.seen()).toEqual([TAB_SEEN, TAB_SEEN]);
  }
  if (fish) {
    expect(run(fish, ["--no-config", "-c", `source '${join(REPO_ROOT, "shell", "spex.fish")}'; complete -C 'spex session show q'`])).toBe("quiet-fixer");
    expect(spex.seen().at(-1)).toBe(TAB_SEEN);
    // Set for that one call: the shell around it keeps its own settings.
    expect(run(fish, ["--no-config", "-c", `source '${join(REPO_ROOT, "shell", "spex.fish")}'; complete -C 'spex session show q' >/dev/null; set -q BUN_JSC_useJIT; and echo leaked; or echo kept`])).toBe("kept");
  }
});

test("bash completion offers verbs from the registry and the project's sessions", () => {
  sb = sandbox();
  const rec = seedRecord(sb.home, sb.repo, { name: "auth-fixer" });
  const complete = (words: string) => bash(`. '${join(REPO_ROOT, "shell", "spex.bash")}'; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`);
  expect(complete("spex session sh").split("\n")).toEqual(["show"]);
  expect(complete("sessions st").split("\n")).toEqual(["stop"]);
  expect(complete("spex session show ''").split("\n")).toEqual(expect.arrayContaining([rec.session_id.slice(0, 8), "auth-fixer", "--json"]));
});

test("a completed session name goes into the command line quoted: its spaces and shell syntax stay in the name, nothing in it runs", () => {
  sb = sandbox();
  const names = ["Night Shift", `x; touch ${sb.dir}/pwned-semicolon #`, `y$(touch ${sb.dir}/pwned-subst)`, "it's `here`"];
  for (const name of names) seedRecord(sb.home, sb.repo, { name });
  const init = `. '${join(REPO_ROOT, "shell", "spex.bash")}'`;
  for (const name of names) {
    // Tab on the name's first letter (no other name or id starts with it), then Enter on the line completion left.
    const line = bash(`${init}; COMP_WORDS=(spex session show ${name[0]}); COMP_CWORD=3; _spex_complete; printf '%s\\n' "spex session show \${COMPREPLY[0]} --json"`);
    const ran = spawnSync("bash", ["-c", line], { cwd: sb.repo, env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` }, encoding: "utf8" });
    expect({ name, code: ran.status, shown: ran.status === 0 ? JSON.parse(ran.stdout).name : ran.stderr }).toEqual({ name, code: 0, shown: name });
  }
  expect(readdirSync(sb.dir).filter((n) => n.startsWith("pwned-"))).toEqual([]);
});

test("a session named `*` or `[R]EADME.md` completes to itself, not to the files of the current folder (no glob)", () => {
  sb = sandbox();
  const names = ["*", "[R]EADME.md"];
  for (const name of names) seedRecord(sb.home, sb.repo, { name });
  const init = `. '${join(REPO_ROOT, "shell", "spex.bash")}'`;
  for (const name of names) {
    const typed = name.slice(0, 1);
    const got = bash(`${init}; COMP_WORDS=(spex session show '${typed}'); COMP_CWORD=3; _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`).split("\n");
    // Quoted for the command line: %q writes `*` as `\*`.
    expect({ name, got }).toEqual({ name, got: [name.replace(/[*[\]]/g, (c) => `\\${c}`)] });
  }
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
  // tmux runs it every few seconds: without the heap warm-up thread, which only costs so short a run CPU.
  const spex = notingSpex(sb);
  expect(spawnSync("sh", [script], { cwd: sb.repo, env: { ...sb.env, PATH: spex.path }, encoding: "utf8" }).stdout).toBe("spex 1 working · 1 asking · 1 review");
  expect(spex.seen()).toEqual(["warm-up 0, JIT unset"]);
});

test.skipIf(!zsh)("zsh runs the same completion through its bash bridge (shell-init.sh)", () => {
  sb = sandbox();
  const r = spawnSync(zsh, ["-c", `. '${join(REPO_ROOT, "shell", "shell-init.sh")}'; COMP_WORDS=(sessions st); COMP_CWORD=1; _spex_complete; print -l $COMPREPLY`], {
    cwd: sb.repo,
    env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` },
    encoding: "utf8",
  });
  expect(r.stdout.trim()).toBe("stop");
  // Names are quoted there too.
  seedRecord(sb.home, sb.repo, { name: "Night Shift" });
  const named = spawnSync(zsh, ["-c", `. '${join(REPO_ROOT, "shell", "shell-init.sh")}'; COMP_WORDS=(spex session show N); COMP_CWORD=3; _spex_complete; print -rl -- $COMPREPLY`], {
    cwd: sb.repo,
    env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` },
    encoding: "utf8",
  });
  expect(named.stdout.trim()).toBe("Night\\ Shift");
});
