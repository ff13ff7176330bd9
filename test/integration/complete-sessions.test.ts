// `spex internal complete` offering sessions, through the binary and the Node
// bundle alike: every record's short id, its name when it has a printable one,
// and nothing for what is no session; the same answer from a linked worktree
// and when lib/store does the lookup (SPEX_PROJECT_ROOT); a hostile record
// (a fifo, a corrupt one, a name with escape codes) costs its name, never the Tab.
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, SPEX_CJS, type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const RUNNERS = ["bin", "node"] as const;

function complete(runner: (typeof RUNNERS)[number], words: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): string[] {
  const r = sb.spex(["internal", "complete", "--", ...words], { runner, ...opts });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  // The verb's options come with the sessions on an empty word: only the sessions are looked at here.
  return r.stdout.split("\n").filter((w) => w !== "" && !w.startsWith("--")).sort();
}

const sessionsDir = () => {
  const [key] = readdirSync(join(sb.home, "projects"));
  return join(sb.home, "projects", key!, "sessions");
};
const namesDir = () => join(sessionsDir(), "..", "listing");

describe.each(RUNNERS)("completion of a selector (%s)", (runner) => {
  test("each session's short id and name; nothing for a folder without a record or not named by an id", () => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "auth-fixer" });
    const b = seedRecord(sb.home, sb.repo, { name: "" });
    mkdirSync(join(sessionsDir(), "d0000000-0000-4000-8000-00000000000d")); // a session still being made: no record yet
    mkdirSync(join(sessionsDir(), "not-a-session"));
    writeFileSync(join(sessionsDir(), "not-a-session", "session.json"), JSON.stringify({ name: "ghost" }));
    const want = [a.session_id.slice(0, 8), "auth-fixer", b.session_id.slice(0, 8)].sort();
    expect(complete(runner, ["session", "show", "--json", ""])).toEqual(want);
    expect(complete(runner, ["session", "show", "au"])).toEqual(["auth-fixer"]);
  });

  test("a fleet of fifty: every id and every name, whatever characters JSON escapes in it, read back as written", () => {
    sb = sandbox();
    const odd = ['say "hi"', "back\\slash", "café au lait", "日本語の修正", "🎉 party", "$(touch x)", "tab-free  spaces", "a/b:c", "\u00e9 literal"];
    const records = Array.from({ length: 50 }, (_, i) => seedRecord(sb.home, sb.repo, { name: i % 5 === 4 ? "" : (odd[i % odd.length] ?? "") + ` ${i}` }));
    const want = records.flatMap((r) => [r.session_id.slice(0, 8), ...(r.name ? [r.name] : [])]).sort();
    expect(complete(runner, ["session", "show", "--json", ""])).toEqual(want);
  });

  test("a corrupt record, a name with escape codes or a line break, a fifo planted as session.json: the id only, and the Tab returns", () => {
    sb = sandbox();
    // Records edited by hand: without the listing index (a store from before it), so the Tab reads each one.
    const noIndex = () => rmSync(namesDir(), { recursive: true, force: true });
    const good = seedRecord(sb.home, sb.repo, { name: "fine" });
    const corrupt = seedRecord(sb.home, sb.repo, { name: "was-fine" });
    writeFileSync(join(sessionsDir(), corrupt.session_id, "session.json"), '{ "name": "was-fine", ');
    const escape = seedRecord(sb.home, sb.repo, { name: "plain" });
    const record = (id: string) => join(sessionsDir(), id, "session.json");
    const text = (id: string) => readFileSync(record(id), "utf8");
    writeFileSync(record(escape.session_id), text(escape.session_id).replace('"name": "plain"', '"name": "red\\u001b[31m"'));
    const broken = seedRecord(sb.home, sb.repo, { name: "two-lines" });
    writeFileSync(record(broken.session_id), text(broken.session_id).replace('"name": "two-lines"', '"name": "two\\nlines"'));
    const fifo = seedRecord(sb.home, sb.repo, { name: "piped" });
    rmSync(record(fifo.session_id));
    execFileSync("mkfifo", [record(fifo.session_id)]);
    const ids = [good, corrupt, escape, broken, fifo].map((r) => r.session_id.slice(0, 8));
    noIndex();
    expect(complete(runner, ["session", "show", "--json", ""])).toEqual([...ids, "fine"].sort());
  });

  test("names with escape codes or a line break written by spex itself: the index has them, the Tab offers their ids only", () => {
    sb = sandbox();
    const escape = seedRecord(sb.home, sb.repo, { name: "red\u001b[31m" });
    const broken = seedRecord(sb.home, sb.repo, { name: "two\nlines" });
    const bell = seedRecord(sb.home, sb.repo, { name: "\u0007\u009b" });
    expect(readdirSync(namesDir()).filter((e) => e[36] === ".")).toHaveLength(3);
    expect(complete(runner, ["session", "show", "--json", ""])).toEqual([escape, broken, bell].map((r) => r.session_id.slice(0, 8)).sort());
  });

  test("from a linked worktree, and with SPEX_PROJECT_ROOT set (lib/store finds the store): the same sessions", () => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "auth-fixer" });
    const wt = join(sb.dir, "wt-side");
    sb.git(["worktree", "add", "-q", "-b", "side", wt]);
    const want = [a.session_id.slice(0, 8), "auth-fixer"].sort();
    expect(complete(runner, ["session", "show", "--json", ""], { cwd: wt })).toEqual(want);
    expect(complete(runner, ["session", "show", "--json", ""], { cwd: sb.dir, env: { SPEX_PROJECT_ROOT: sb.repo } })).toEqual(want);
  });

  test("a renamed session completes to its new name only", () => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "old-name" });
    expect(sb.spex(["session", "rename", a.session_id, "new-name"], { runner }).code).toBe(0);
    expect(complete(runner, ["session", "show", "--json", ""])).toEqual([a.session_id.slice(0, 8), "new-name"].sort());
  });

  test("without SPEX_HOME the user's ~/.spex is read; a home other users may write offers no session", () => {
    sb = sandbox();
    const userHome = join(sb.dir, "userhome");
    const a = seedRecord(join(userHome, ".spex"), sb.repo, { name: "in-default-home" });
    const { SPEX_HOME: _home, ...withoutHome } = sb.env;
    const [cmd, pre] = runner === "node" ? ["node", [SPEX_CJS]] : [SPEX_BIN, []];
    const r = spawnSync(cmd, [...pre, "internal", "complete", "--", "session", "show", "--json", ""], { cwd: sb.repo, env: { ...withoutHome, HOME: userHome }, encoding: "utf8" });
    expect(r.stdout.split("\n").filter((w) => w !== "" && !w.startsWith("--")).sort()).toEqual([a.session_id.slice(0, 8), "in-default-home"].sort());
    seedRecord(sb.home, sb.repo, { name: "unsafe" });
    chmodSync(sb.home, 0o777);
    expect(complete(runner, ["session", "show", "--json", ""])).toEqual([]);
  });
});
