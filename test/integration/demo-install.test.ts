// `make demo` on a fresh clone installs the npm dependencies once: the demo
// script leaves it to make's stamped rule instead of running its own npm ci
// first. A stand-in npm records each call and leaves a bun that stops the
// build right there, so nothing is downloaded or compiled.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
