// `make demo` on a fresh clone installs the npm dependencies once: the demo
// script leaves it to make's stamped rule instead of running its own npm ci
// first. A stand-in npm records each call and leaves a bun that stops the
// build right there, so nothing is downloaded or compiled.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Sandbox, sandbox } from "../support/sandbox";
import { installed } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

test.skipIf(!installed("tmux") || !installed("make"))("make demo on a fresh clone runs npm ci exactly once", () => {
  sb = sandbox({ repo: false });
  const clone = join(sb.dir, "fresh-clone");
  mkdirSync(clone);
  for (const f of ["Makefile", "package.json", "package-lock.json", "scripts"]) cpSync(join(REPO_ROOT, f), join(clone, f), { recursive: true });
  const tools = join(sb.dir, "tools");
  mkdirSync(tools);
  const log = join(sb.dir, "npm.log");
  // npm ci: note the call, install a bun that fails (the build stops before compiling anything).
  writeFileSync(
    join(tools, "npm"),
    `#!/bin/sh\necho "npm $*" >> '${log}'\nmkdir -p node_modules/.bin\nprintf '#!/bin/sh\\necho stand-in bun >&2\\nexit 3\\n' > node_modules/.bin/bun\nchmod +x node_modules/.bin/bun\n`,
    { mode: 0o755 },
  );
  const env: Record<string, string> = { ...sb.env, PATH: `${tools}:${sb.env.PATH}` };
  for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"]) delete env[k];
  const r = spawnSync("make", ["demo"], { cwd: clone, env, encoding: "utf8" });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain("stand-in bun");
  expect(existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []).toEqual(["npm ci --no-audit --no-fund"]);
});

// The demo's tmux server is its run's own: a second demo on the machine (here
// one on the old fixed socket `spex-demo`) keeps running through this one's
// printed clean-up, which ends this run's server and folder alone.
test.skipIf(!installed("tmux") || !installed("make"))("make demo runs on a tmux server of its own and its printed clean-up ends only that one", () => {
  sb = sandbox({ repo: false });
  const tmp = join(sb.dir, "tmp dir 'q'");
  const tmuxDir = join(sb.dir, "tmux");
  mkdirSync(tmp);
  mkdirSync(tmuxDir, { mode: 0o700 });
  const env: Record<string, string> = { ...sb.env, TMPDIR: tmp, TMUX_TMPDIR: tmuxDir };
  for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"]) delete env[k];
  const tmux = (args: string[]) => spawnSync("tmux", args, { env, encoding: "utf8" });
  expect(tmux(["-L", "spex-demo", "-f", "/dev/null", "new-session", "-d", "-s", "other-demo", "sleep 600"]).status).toBe(0);
  let socket = "";
  try {
    const r = spawnSync("sh", [join(REPO_ROOT, "scripts", "demo.sh")], { cwd: REPO_ROOT, env, encoding: "utf8", timeout: 170000 });
    expect(r.status).toBe(0);
    const cleanup = r.stdout.split("\n").find((l) => l.startsWith("Clean up: "))?.slice("Clean up: ".length) ?? "";
    socket = /tmux -L (\S+) kill-server/.exec(cleanup)?.[1] ?? "";
    expect(socket).toMatch(/^spex-demo-\w+$/);
    const folder = readdirSync(tmp).find((n) => n.startsWith("spex-demo."))!;
    expect(socket).toBe(`spex-demo-${folder.split(".").pop()}`);
    // The demo leaves its session running on that server, to attach to.
    expect(tmux(["-L", socket, "ls"]).status).toBe(0);
    const done = spawnSync("sh", ["-c", cleanup], { env, encoding: "utf8" });
    expect({ code: done.status, stderr: done.stderr }).toEqual({ code: 0, stderr: "" });
    expect(tmux(["-L", socket, "ls"]).status).not.toBe(0);
    expect(existsSync(join(tmp, folder))).toBe(false);
    expect(tmux(["-L", "spex-demo", "has-session", "-t", "=other-demo"]).status).toBe(0);
  } finally {
    tmux(["-L", "spex-demo", "kill-server"]);
    if (socket) tmux(["-L", socket, "kill-server"]);
  }
}, 180000);
