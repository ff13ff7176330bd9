// `make install PREFIX=…` puts the binary, the `sessions` alias and the shell
// integration in place and prints the lines that turn it on; those lines,
// pasted into a shell, give working completion from the installed copy alone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Sandbox, sandbox } from "../support/sandbox";
import { installed } from "../support/shell-sessions";

let sb: Sandbox;
let prefix: string;
let printed: string;

beforeAll(() => {
  sb = sandbox();
  prefix = join(sb.dir, "prefix");
  const env: Record<string, string> = { ...sb.env };
  for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"]) delete env[k];
  // The binary this run already built is installed as it is (-o: not remade here).
  const r = spawnSync("make", ["-s", "install", `PREFIX=${prefix}`, "-o", "bin/spex", "-o", "dist/spex.cjs"], { cwd: REPO_ROOT, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`make install exited ${r.status}: ${r.stderr}`);
  printed = r.stdout;
});
afterAll(() => sb.cleanup());

const share = () => join(prefix, "share", "spex");

/** The line `make install` told the user to add for this shell. */
function lineFor(marker: string): string {
  const line = printed.split("\n").find((l) => l.includes(marker));
  if (!line) throw new Error(`no line with ${marker} in:\n${printed}`);
  return line.slice(line.indexOf(":") + 1).trim();
}

/** Run a shell with only the installed spex on PATH (not the checkout's bin/). */
function run(shell: string, args: string[]) {
  return spawnSync(shell, args, { cwd: sb.repo, env: { ...sb.env, PATH: `${join(prefix, "bin")}:${sb.env.PATH}` }, encoding: "utf8" });
}

describe("make install", () => {
  test("installs the binary, the sessions alias and the shell integration under PREFIX", () => {
    expect(readFileSync(join(prefix, "bin", "spex")).equals(readFileSync(join(REPO_ROOT, "bin", "spex")))).toBe(true);
    expect(readlinkSync(join(prefix, "bin", "sessions"))).toBe("spex");
    for (const f of ["shell-init.sh", "spex.bash", "spex.zsh", "spex.fish"]) {
      expect(readFileSync(join(share(), f), "utf8")).toBe(readFileSync(join(REPO_ROOT, "shell", f), "utf8"));
    }
    expect(statSync(join(share(), "tmux-status.sh")).mode & 0o111).not.toBe(0);
    expect(printed).toContain(`. '${share()}/shell-init.sh'`);
    expect(printed).toContain(`source '${share()}/spex.fish'`);
    expect(printed).toContain(`${share()}/tmux-status.sh`);
  });

  test("the printed bash line, sourced, completes verbs for spex and sessions from the installed copy", () => {
    const complete = (words: string) => {
      const r = run("bash", ["-c", `${lineFor("~/.bashrc")}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`]);
      expect(r.stderr).toBe("");
      return r.stdout.trim().split("\n");
    };
    expect(complete("spex session sh")).toEqual(["show"]);
    expect(complete("sessions st")).toEqual(["stop"]);
  });

  test.skipIf(!installed("zsh"))("the same line works in zsh", () => {
    const r = run("zsh", ["-c", `${lineFor("~/.bashrc")}; COMP_WORDS=(sessions st); COMP_CWORD=1; _spex_complete; print -l $COMPREPLY`]);
    expect(r.stdout.trim()).toBe("stop");
  });

  test.skipIf(!installed("fish"))("the printed fish line completes in fish", () => {
    const r = run("fish", ["--no-config", "-c", `${lineFor("config.fish")}; complete -C 'spex session sh'`]);
    expect(r.stdout.trim().split("\n").map((l) => l.split("\t")[0])).toEqual(["show"]);
  });

  test("the installed tmux status segment runs (quiet with no working sessions)", () => {
    const r = run("sh", [join(share(), "tmux-status.sh")]);
    expect({ code: r.status, out: r.stdout }).toEqual({ code: 0, out: "" });
  });
});
