// The built binary as a new user meets it (issue 16): version, argv0
// namespaces, the `ls` table on a real terminal (a pty from `script`), `show`,
// one-line errors, and completion through the shell scripts.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Sandbox, REPO_ROOT, SPEX_BIN, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { processIdentity } from "../../lib/proc";
import { projectStore, sessionPaths } from "../../lib/store";
import { listRows } from "../../lib/sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const ESC = "\u001b[";

describe("version", () => {
  test("--version, -v and `version` print the version, the commit, the build date and the target, in the binary and the Node bundle", () => {
    sb = sandbox();
    // The stamp is this checkout's commit when the binary was built (HEAD may have moved since).
    const isCommit = (hash: string) => spawnSync("git", ["cat-file", "-e", `${hash}^{commit}`], { cwd: REPO_ROOT }).status === 0;
    for (const runner of ["bin", "node"] as const) {
      const lines = [["--version"], ["-v"], ["version"]].map((args) => sb.spex(args, { runner }));
      for (const r of lines) {
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^spex \d+\.\d+\.\d+ \(commit [0-9a-f]{12}(\+dirty)?, built \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, for \S+\)\n$/);
      }
      expect(new Set(lines.map((r) => r.stdout)).size).toBe(1);
      const json = JSON.parse(sb.spex(["version", "--json"], { runner }).stdout);
      expect(isCommit(json.commit.replace("+dirty", ""))).toBe(true);
      expect(lines[0]!.stdout).toContain(`commit ${json.commit}, built ${json.built}, for ${json.target})`);
      // What it was built for: the binary names its platform, the bundle names Node.
      expect(json.target).toBe(runner === "node" ? "node" : `${process.platform}-${process.arch}`);
    }
  });
});

describe("argv0 and namespaces", () => {
  test("`sessions` and `sessions --help` called through a link list the session verbs", () => {
    sb = sandbox();
    const bin = join(sb.dir, "bin");
    mkdirSync(bin);
    symlinkSync(SPEX_BIN, join(bin, "sessions"));
    for (const args of [[], ["--help"]]) {
      const r = spawnSync(join(bin, "sessions"), args, { cwd: sb.repo, env: sb.env, encoding: "utf8" });
      expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      expect(r.stdout).toContain("\n  new ");
      expect(r.stdout).toContain("\n  ls ");
    }
  });
});

/** Run spex on a real terminal of the given width; the bytes it wrote, with the pty's CRLF turned back into LF. */
function onTerminal(args: string[], columns: number, env: Record<string, string> = {}): string {
  const command = `stty cols ${columns} rows 50; exec '${SPEX_BIN}' ${args.map((a) => `'${a}'`).join(" ")}`;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: sb.repo, env: { ...sb.env, TERM: "xterm-256color", ...env }, encoding: "utf8", input: "" });
  expect(r.status).toBe(0);
  return r.stdout.replace(/\r\n/g, "\n");
}

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "");

describe("ls on a terminal", () => {
  function fleet() {
    sb = sandbox();
    const me = processIdentity(process.pid)!;
    const online = { agent_pid: String(me.pid), agent_start: me.start };
    const long = "add rate limiting to the [[api]] and keep going with a prompt long enough to overflow any terminal we test with";
    const parent = seedRecord(sb.home, sb.repo, { prompt: long, status: "active", ...online, createdAt: "2025-01-01T00:00:01Z" });
    const child = seedRecord(sb.home, sb.repo, { prompt: "write the tests for the limiter", status: "asking", parent: parent.session_id, ...online, createdAt: "2025-01-01T00:00:02Z" });
    const grandchild = seedRecord(sb.home, sb.repo, { prompt: "grandchild docs", status: "idle", parent: child.session_id, createdAt: "2025-01-01T00:00:03Z" });
    const archived = seedRecord(sb.home, sb.repo, { prompt: "an old archived one", status: "idle", archived: true, createdAt: "2025-01-01T00:00:04Z" });
    const corrupt = seedRecord(sb.home, sb.repo, { prompt: "soon corrupt", createdAt: "2025-01-01T00:00:05Z" });
    const file = sessionPaths(projectStore(sb.repo, sb.home), corrupt.session_id).record;
    writeFileSync(file, '{ "broken');
    for (const args of [["group", "new", "fleet"], ["group", "file", "fleet", child.session_id]]) expect(sb.spex(args).code).toBe(0);
    return { parent, child, grandchild, archived, corrupt, file };
  }

  test("colours by status, fits the width (prompt cut, ids whole), indents children, shows groups, marks archived rows, keeps a corrupt row's shape", () => {
    const f = fleet();
    for (const columns of [200, 120, 90, 70]) {
      const out = onTerminal(["session", "ls", "--all"], columns);
      expect(out).toContain(`${ESC}32mworking`);
      expect(out).toContain(`${ESC}33masking`);
      expect(out).toContain(`${ESC}31mcorrupt`);
      const lines = plain(out).trimEnd().split("\n");
      // Every table line fits; only a corrupt row's file line may be longer (a path is never cut).
      for (const l of lines.filter((x) => !/^ +file: /.test(x))) expect({ columns, l, fits: l.length <= columns }).toEqual({ columns, l, fits: true });
      expect(lines[0]).toMatch(/^ID +STATUS +AGE +GROUP +LABEL/);
      const row = (id: string) => lines.find((l) => l.startsWith(id.slice(0, 8)))!;
      for (const r of [f.parent, f.child, f.grandchild, f.archived, f.corrupt]) expect(row(r.session_id)).toBeDefined();
      expect(row(f.child.session_id)).toMatch(/ fleet +└ /);
      expect(row(f.grandchild.session_id)).toMatch(/ {3}└ /);
      expect(lines.indexOf(row(f.child.session_id))).toBe(lines.indexOf(row(f.parent.session_id)) + 1);
      expect(row(f.archived.session_id)).toContain("(archived)");
      // The corrupt row keeps ID/STATUS/LABEL in their columns; its file is on the next line, alone.
      const corruptAt = lines.indexOf(row(f.corrupt.session_id));
      expect(row(f.corrupt.session_id)).toMatch(/corrupt +\(corrupt/);
      expect(row(f.corrupt.session_id)).not.toContain(f.file.slice(0, 20));
      expect(lines.slice(corruptAt + 1).join("").replace(/\s/g, "")).toContain(`file:${f.file}`);
      if (columns < 150) expect(out).toContain("…");
    }
  });

  test("NO_COLOR, --no-color, a pipe and --json give no colour; --json is the rows exactly", () => {
    fleet();
    expect(onTerminal(["session", "ls"], 120, { NO_COLOR: "1" })).not.toContain(ESC);
    expect(onTerminal(["session", "ls", "--no-color"], 120)).not.toContain(ESC);
    expect(onTerminal(["session", "ls", "--json"], 120)).not.toContain(ESC);
    const piped = sb.spex(["session", "ls"], { env: { TERM: "xterm-256color" } });
    expect(piped.stdout).not.toContain(ESC);
    // Piped output is never cut: the whole title is the label and the (bounded) preview goes on from it.
    expect(piped.stdout).toContain("add rate limiting to the api and keep going with a prompt long enough t…");
    expect(piped.stdout).toContain("…to overflow any terminal");
    const rows = listRows(projectStore(sb.repo, sb.home)).filter((r) => r.kind === "corrupt" || !r.archived);
    expect(sb.spex(["session", "ls", "--json"]).stdout).toBe(JSON.stringify(rows, null, 2) + "\n");
  });
});

describe("show", () => {
  test("says stopped and archived, and trims the blank lines at the end of the last screen", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { prompt: "parked work", status: "idle", stopped: true, archived: true });
    writeFileSync(sessionPaths(projectStore(sb.repo, sb.home), rec.session_id).lastScreen, "$ make test   \nall green\n\n   \n\n\n");
    const r = sb.spex(["session", "show", rec.session_id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nstopped +yes/);
    expect(r.stdout).toMatch(/\narchived +yes/);
    expect(r.stdout.endsWith("last screen:\n$ make test\nall green\n")).toBe(true);
  });
});

describe("errors", () => {
  test("a launch that dies prints one error line with the screen's lines, never a literal \\n", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { broken: { harness: "claude", command: "sh -c 'echo first-line; echo second-line; exit 3'" } } }));
    const r = sb.spex(["session", "new", "--launcher", "broken", "doomed"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^spex: [^\n]+ \[launch_failed\]\n$/);
    expect(r.stderr).not.toContain("\\n");
    expect(r.stderr).toMatch(/first-line.*second-line/);
  });
});

describe("completion through the shell scripts", () => {
  function bash(script: string, cwd = sb.repo): string[] {
    const r = spawnSync("bash", ["-c", script], { cwd, env: { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` }, encoding: "utf8" });
    expect(r.stderr).toBe("");
    return r.stdout.split("\n").filter(Boolean);
  }
  const complete = (words: string, cwd?: string) =>
    bash(`. '${join(REPO_ROOT, "shell", "spex.bash")}'; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _spex_complete; printf '%s\\n' "\${COMPREPLY[@]}"`, cwd);

  test("--launcher offers launchers, --group and `group file` offer groups, then sessions", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { mine: { harness: "shell", command: "sleep 600" } } }));
    const rec = seedRecord(sb.home, sb.repo, { name: "auth-fixer" });
    expect(sb.spex(["group", "new", "fleet"]).code).toBe(0);
    expect(complete("spex session new --launcher ''")).toEqual(["claude", "codex", "gemini", "mine", "shell"]);
    expect(complete("spex session new --group ''")).toEqual(["fleet"]);
    expect(complete("spex group file ''")).toContain("fleet");
    expect(complete("spex group file ''")).not.toContain("auth-fixer");
    expect(complete("spex group file fleet ''")).toEqual(expect.arrayContaining([rec.session_id.slice(0, 8), "auth-fixer"]));
  });

  test("outside any repository --launcher offers the built-in launchers, and the verbs still complete (issue 28 item 9)", () => {
    sb = sandbox();
    const elsewhere = join(sb.dir, "not-a-repo");
    mkdirSync(elsewhere);
    expect(complete("spex session new --launcher ''", elsewhere)).toEqual(["claude", "codex", "gemini", "shell"]);
    expect(complete("spex session new --launcher=c", elsewhere)).toEqual(["--launcher=claude", "--launcher=codex"]);
    expect(complete("spex session sh", elsewhere)).toEqual(["show"]);
    expect(complete("spex session show ''", elsewhere)).toEqual(expect.arrayContaining(["--json", "--machine", "--repo"]));
  });
});

describe("a folder whose name is not UTF-8", () => {
  test("a repository there is refused path_not_utf8, naming the cause, not as no git checkout", () => {
    sb = sandbox({ repo: false });
    const run = spawnSync("sh", ["-c", `mkdir "$(printf 'r\\377x')" && cd "$(printf 'r\\377x')" && git init -q && exec "$0" session ls`, SPEX_BIN], { cwd: sb.dir, env: sb.env, encoding: "utf8" });
    expect({ code: run.status, stderr: run.stderr }).toEqual({ code: 1, stderr: expect.stringContaining("[path_not_utf8]") });
    expect(run.stderr).toContain("not UTF-8");
  });
});
