// `make install PREFIX=…` puts the binary, the `sessions` alias and the shell
// integration in place and prints the lines that turn it on. Those lines are
// code a person pastes: here they are pasted, from a PREFIX with blanks,
// quotes, `#`, `#[`, `%` and a backslash in it, into bash, zsh, fish and a real tmux
// server, and they work there and run nothing else, whatever folder a pane
// sits in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { installed } from "../support/shell-sessions";

let sb: Sandbox;
let prefix: string;
let printed: string;

beforeAll(() => {
  sb = sandbox();
  prefix = join(sb.dir, `pre fix 'q' "d" #h \\b %d #[fg=red]`);
  const env: Record<string, string> = { ...sb.env };
  for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"]) delete env[k];
  // The binary this run already built is installed as it is (-o: not remade here).
  const r = spawnSync("make", ["-s", "install", `PREFIX=${prefix}`, "-o", "bin/spex", "-o", "dist/spex.cjs"], { cwd: REPO_ROOT, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`make install exited ${r.status}: ${r.stderr}`);
  printed = r.stdout;
});
afterAll(() => sb.cleanup());

const share = () => join(prefix, "share", "spex");
const bin = () => join(prefix, "bin");

/** The line printed to paste under `label`, in the block that starts with `block`. */
function pasteLine(block: string, label: string): string {
  const lines = printed.split("\n");
  const from = lines.findIndex((l) => l.startsWith(block));
  const at = lines.findIndex((l, i) => i > from && l.includes(label));
  if (from < 0 || at < 0 || !lines[at + 1]?.startsWith("    ")) throw new Error(`no line under ${block} › ${label} in:\n${printed}`);
  return lines[at + 1]!.slice(4);
}

/** A tmux config line as printed, from its first command on (whatever the words before it). */
function tmuxLine(marker: string): string {
  const line = printed.split("\n").find((l) => l.includes(marker) && /\b(if-shell|set) /.test(l));
  if (!line) throw new Error(`no tmux line with ${marker} in:\n${printed}`);
  return line.slice(line.search(/\b(if-shell|set) /));
}

/** Run a shell with only the installed spex on PATH (not the checkout's bin/). */
function run(shell: string, args: string[]) {
  return spawnSync(shell, args, { cwd: sb.repo, env: { ...sb.env, PATH: `${bin()}:${sb.env.PATH}` }, encoding: "utf8" });
}

describe("make install", () => {
  test("installs the binary, the sessions alias and the shell integration under PREFIX", () => {
    expect(readFileSync(join(bin(), "spex")).equals(readFileSync(join(REPO_ROOT, "bin", "spex")))).toBe(true);
    expect(readlinkSync(join(bin(), "sessions"))).toBe("spex");
    for (const f of ["shell-init.sh", "spex.bash", "spex.zsh", "spex.fish"]) {
      expect(readFileSync(join(share(), f), "utf8")).toBe(readFileSync(join(REPO_ROOT, "shell", f), "utf8"));
    }
    expect(statSync(join(share(), "tmux-status.sh")).mode & 0o111).not.toBe(0);
  });

  test("a sessions command of the user's own in PREFIX/bin is kept as it was, and the output says so; spex's own link is renewed", () => {
    const other = join(sb.dir, "other prefix");
    mkdirSync(join(other, "bin"), { recursive: true });
    const mine = "#!/bin/sh\necho my own sessions picker\n";
    writeFileSync(join(other, "bin", "sessions"), mine);
    const env: Record<string, string> = { ...sb.env };
    for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"]) delete env[k];
    const install = (to: string) => spawnSync("make", ["-s", "install", `PREFIX=${to}`, "-o", "bin/spex", "-o", "dist/spex.cjs"], { cwd: REPO_ROOT, env, encoding: "utf8" });
    const r = install(other);
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(join(other, "bin", "sessions"), "utf8")).toBe(mine);
    expect(r.stdout).toContain(`${join(other, "bin", "sessions")} is there already and is not spex's: left as it is`);
    // Installing again over spex's own link (the PREFIX of beforeAll) keeps it spex's.
    const again = install(prefix);
    expect({ code: again.status, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(again.stdout).toContain(`${join(bin(), "sessions")} and the shell integration`);
    expect(readlinkSync(join(bin(), "sessions"))).toBe("spex");
  });

  test("installing again while a spex runs from PREFIX/bin (an agent's MCP server) replaces the binary; the running one keeps its file", async () => {
    const running = spawn(join(bin(), "spex"), ["mcp"], { cwd: sb.repo, env: sb.env, stdio: ["pipe", "ignore", "ignore"] });
    try {
      await waitFor(() => readFileSync(`/proc/${running.pid}/cmdline`, "utf8").includes("mcp"), "the installed spex running");
      const env: Record<string, string> = { ...sb.env };
      for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"]) delete env[k];
      const r = spawnSync("make", ["-s", "install", `PREFIX=${prefix}`, "-o", "bin/spex", "-o", "dist/spex.cjs"], { cwd: REPO_ROOT, env, encoding: "utf8" });
      expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      expect(readFileSync(join(bin(), "spex")).equals(readFileSync(join(REPO_ROOT, "bin", "spex")))).toBe(true);
      expect(readdirSync(bin()).sort()).toEqual(["sessions", "spex"]);
      expect(running.exitCode).toBe(null);
    } finally {
      running.kill("SIGKILL");
    }
  });

  test("the printed PATH lines, pasted into bash, zsh and fish, put the installed spex first on PATH", () => {
    const found = (shell: string, args: string[]) => {
      const r = spawnSync(shell, args, { cwd: sb.repo, env: sb.env, encoding: "utf8" });
      expect(r.stderr).toBe("");
      return r.stdout.trim();
    };
    const sh = pasteLine(`${bin()} is not on your PATH`, "bash or zsh");
    expect(found("bash", ["-c", `${sh}\ncommand -v spex`])).toBe(join(bin(), "spex"));
    if (installed("zsh")) expect(found("zsh", ["-f", "-c", `${sh}\ncommand -v spex`])).toBe(join(bin(), "spex"));
    if (installed("fish")) expect(found("fish", ["--no-config", "-c", `${pasteLine(`${bin()} is not on your PATH`, "fish")}\ncommand -v spex`])).toBe(join(bin(), "spex"));
  });

  test("the printed bash line, sourced, completes verbs for spex and sessions from the installed copy", () => {
    const line = pasteLine("completion", "bash or zsh");
    const complete = (words: string) => {
      const r = run("bash", ["-c", `${line}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`]);
      expect(r.stderr).toBe("");
      return r.stdout.trim().split("\n");
    };
    expect(complete("spex session sh")).toEqual(["show"]);
    expect(complete("sessions st")).toEqual(["stop"]);
  });

  test.skipIf(!installed("zsh"))("the same line works in zsh", () => {
    const r = run("zsh", ["-c", `${pasteLine("completion", "bash or zsh")}; COMP_WORDS=(sessions st); COMP_CWORD=1; _spex_complete; print -l $COMPREPLY`]);
    expect(r.stdout.trim()).toBe("stop");
  });

  test.skipIf(!installed("fish"))("the printed fish line completes in fish", () => {
    const r = run("fish", ["--no-config", "-c", `${pasteLine("completion", "fish")}; complete -C 'spex session sh'`]);
    expect(r.stdout.trim().split("\n").map((l) => l.split("\t")[0])).toEqual(["show"]);
  });

  test("the installed tmux status segment runs (quiet with no working sessions)", () => {
    const r = run("sh", [join(share(), "tmux-status.sh")]);
    expect({ code: r.status, out: r.stdout }).toEqual({ code: 0, out: "" });
  });
});

// ---- the printed user service (issue 27 item 4): printed, never installed ----

/**
 * A unit's command line split as systemd.exec(5) documents it: words apart by
 * blanks, a word or part of one quoted with "…" or '…', \\ \" \' escapes, $$ for $ and %% for %. A
 * lone $ or % (which systemd would expand) or any other escape is an error.
 */
function unitWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === " ") i++;
    if (i >= line.length) break;
    let word = "";
    while (i < line.length && line[i] !== " ") {
      const q = line[i] === '"' || line[i] === "'" ? line[i++]! : "";
      for (; i < line.length && (q ? line[i] !== q : line[i] !== " "); i++) {
        const c = line[i]!;
        const next = line[i + 1] ?? "";
        if (c === "\\") {
          if (next === "" || !"\\\"'".includes(next)) throw new Error(`the escape \\${next} in ${line}`);
          word += next;
          i++;
        } else if (c === "$" || c === "%") {
          if (next !== c) throw new Error(`a lone ${c} (systemd would expand it) in ${line}`);
          word += c;
          i++;
        } else word += c;
      }
      if (q && line[i++] !== q) throw new Error(`an unclosed quote in ${line}`);
    }
    words.push(word);
  }
  return words;
}

describe("the printed user service", () => {
  test("pasted into sh, it writes a unit systemd accepts and enables it; its command runs the installed spex session resume --all --quiet", () => {
    const line = pasteLine("optional: bring the sessions back at login", "to turn it on");
    // A stand-in systemctl logs what it is asked; the unit lands under the sandbox's HOME.
    const standIn = join(sb.dir, "systemctl-standin");
    mkdirSync(standIn, { recursive: true });
    const calls = join(standIn, "calls.log");
    writeFileSync(join(standIn, "systemctl"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${calls}'\n`);
    chmodSync(join(standIn, "systemctl"), 0o755);
    const env: Record<string, string> = { ...sb.env, PATH: `${standIn}:${sb.env.PATH}` };
    delete env.XDG_CONFIG_HOME;
    const pasted = spawnSync("sh", ["-c", line], { cwd: sb.repo, env, encoding: "utf8" });
    expect({ code: pasted.status, stderr: pasted.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(calls, "utf8")).toBe("--user daemon-reload\n--user enable spex-resume.service\n");
    const file = join(sb.env.HOME!, ".config", "systemd", "user", "spex-resume.service");
    const unit = readFileSync(file, "utf8");
    expect(unit).toContain("WantedBy=default.target");
    if (spawnSync("systemd-analyze", ["--version"]).status === 0) {
      const verified = spawnSync("systemd-analyze", ["verify", "--man=no", file], { env: sb.env, encoding: "utf8" });
      expect({ code: verified.status, stderr: verified.stderr }).toEqual({ code: 0, stderr: "" });
    }
    // The command, run as systemd would split it (from /, no terminal): the installed binary, with nothing to resume, says nothing.
    const exec = unit.split("\n").find((l) => l.startsWith("ExecStart="))!.slice("ExecStart=".length);
    const [cmd, ...args] = unitWords(exec);
    expect(cmd).toBe("/bin/sh");
    expect(args.at(-1)).toBe(join(bin(), "spex"));
    const traced = spawnSync(cmd!, [args[0]!, `set -x; ${args[1]}`, ...args.slice(2)], { cwd: "/", env: sb.env, encoding: "utf8" });
    expect(traced.status).toBe(0);
    expect(traced.stdout).toBe("");
    expect(traced.stderr).toContain(`session resume --all --quiet`);
    expect(traced.stderr.split("\n").filter((l) => !l.startsWith("+"))).toEqual([""]);
  });
});

// ---- the printed tmux lines, in a real tmux server with a client attached ----

/** A tmux server of the test's own: `-L name`, its config from `conf`, killed by `kill()`. */
function tmuxServer(name: string, env: Record<string, string>) {
  const t = (args: string[]) => spawnSync("tmux", ["-L", name, ...args], { env, encoding: "utf8" });
  return { name, t, kill: () => t(["kill-server"]) };
}

/** A folder name tmux's `-c` takes as it is (it expands formats there: `#` is written `##`). */
const tmuxFolder = (path: string) => path.replace(/#/g, "##");

/**
 * A server configured with exactly `config`, its session `s` in `folder`, and
 * a client attached to it from a pane of a second server (so the status line
 * is drawn and keys can be typed into it). A stand-in `spex` first on the
 * server's PATH logs the folder and arguments of every call.
 */
async function attachedServer(s: Sandbox, config: string, folder: string) {
  const tag = `${s.tmuxSocket}-${Math.random().toString(36).slice(2, 8)}`;
  const standIn = join(s.dir, `standin-${tag}`);
  mkdirSync(standIn);
  const log = join(standIn, "calls.log");
  writeFileSync(join(standIn, "spex"), `#!/bin/sh\nprintf '%s\\t%s\\n' "$(pwd)" "$*" >> '${log}'\n`);
  chmodSync(join(standIn, "spex"), 0o755);
  const conf = join(standIn, "tmux.conf");
  writeFileSync(conf, config);
  const env = { ...s.env, PATH: `${standIn}:${s.env.PATH}` };
  const inner = tmuxServer(`${tag}-inner`, env);
  const outer = tmuxServer(`${tag}-outer`, env);
  const made = inner.t(["-f", conf, "new-session", "-d", "-s", "s", "-x", "120", "-y", "30", "-c", tmuxFolder(folder), "cat"]);
  if (made.status !== 0) throw new Error(`the tmux server did not start: ${made.stderr}`);
  outer.t(["-f", "/dev/null", "new-session", "-d", "-s", "o", "-x", "160", "-y", "40", `env -u TMUX tmux -L ${inner.name} attach-session -t =s`]);
  const client = await waitFor(() => inner.t(["list-clients", "-F", "#{client_name}"]).stdout.trim(), "a client attached to the server", 15000);
  const calls = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => l.split("\t")) : []);
  return {
    inner,
    outer,
    client,
    conf,
    calls,
    kill() {
      outer.kill();
      inner.kill();
    },
  };
}

/** Files whose name starts with `pwned`, anywhere under the sandbox or in `/`. */
function pwned(s: Sandbox): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith("pwned")) found.push(join(dir, e.name));
      if (e.isDirectory() && !e.isSymbolicLink()) walk(join(dir, e.name));
    }
  };
  walk(s.dir);
  return [...found, ...readdirSync("/").filter((n) => n.startsWith("pwned")).map((n) => `/${n}`)];
}

describe("the printed tmux lines", () => {
  for (const name of ["x$(touch pwned)", "x'; touch pwned2 #", "x`touch pwned3`"]) {
    test(`the status segment of a pane in a folder named ${name} counts for that folder and runs nothing else`, async () => {
      const folder = join(sb.dir, "panes", name);
      mkdirSync(folder, { recursive: true });
      const server = await attachedServer(sb, `set -g status-right 'mine'\n${tmuxLine("status-right")}\n`, folder);
      try {
        // Redraw the status now, and until the segment's job ran (or, on the old line, the attack did).
        await waitFor(() => {
          server.inner.t(["refresh-client", "-S", "-t", server.client]);
          return server.calls().length > 0 || pwned(sb).length > 0;
        }, "the status segment's job to run", 15000, 200);
        expect(pwned(sb)).toEqual([]);
        expect(server.calls()[0]).toEqual([folder, "session ls --json"]);
        // It was added to the user's status line, not put in its place.
        expect(server.inner.t(["show", "-gv", "status-right"]).stdout).toStartWith("mine #(");
      } finally {
        server.kill();
      }
    });
  }

  test("sourcing the config again adds the segment once", async () => {
    const folder = join(sb.dir, "panes", "plain");
    mkdirSync(folder, { recursive: true });
    const server = await attachedServer(sb, `${tmuxLine("status-right")}\n`, folder);
    try {
      const once = server.inner.t(["show", "-gv", "status-right"]).stdout;
      expect(once.match(/tmux-status\.sh/g)).toHaveLength(1);
      expect(server.inner.t(["source-file", server.conf]).stderr).toBe("");
      expect(server.inner.t(["show", "-gv", "status-right"]).stdout).toBe(once);
    } finally {
      server.kill();
    }
  });

  test("the board binding takes prefix S only while it is free, and opens the board in the pane's folder", async () => {
    const folder = join(sb.dir, "panes", "board x$(touch pwned4)");
    mkdirSync(folder, { recursive: true });
    const binding = tmuxLine("prefix S");
    const taken = await attachedServer(sb, `bind-key S display-message mine\n${binding}\n`, folder);
    try {
      expect(taken.inner.t(["list-keys", "-T", "prefix", "S"]).stdout.trim()).toBe("bind-key -T prefix S display-message mine");
    } finally {
      taken.kill();
    }
    const free = await attachedServer(sb, `${binding}\n`, folder);
    try {
      expect(free.inner.t(["list-keys", "-T", "prefix", "S"]).stdout).toContain("display-popup");
      // The person presses prefix S in the attached client.
      free.outer.t(["send-keys", "-t", "=o:", "C-b", "S"]);
      await waitFor(() => free.calls().length > 0, "the popup to run spex board", 15000, 100);
      expect(free.calls()).toEqual([[folder, "board"]]);
      expect(pwned(sb)).toEqual([]);
    } finally {
      free.kill();
    }
  });
});
