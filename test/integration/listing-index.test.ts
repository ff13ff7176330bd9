// The listing index (lib/store/listing-index.ts, lib/record/listing.ts),
// through the built binary. Names: each session has one name entry and it
// names what the record says, after a create, a rename and a close; a kill
// between the steps of a rename leaves the Tab offering the record's name,
// never the other; a store from before the index completes from its records
// and gains entries as they are written; with the index whole, a Tab opens no
// record. Rows: `ls` through the index gives, byte for byte, what it gives
// reading every session's files, and opens no prompt and looks up no side
// file the index vouches is absent.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, madeBySpex, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { newSession, refOf } from "../support/review";
import { projectStore } from "../../lib/store";
import { type UsageFile, writeUsage } from "../../lib/attention/usage/store";
import { writeMergedMark } from "../../lib/sessions/merged";

let sb: Sandbox;
afterEach(() => sb?.cleanup());
const straceWorks = spawnSync("strace", ["-o", "/dev/null", "true"]).status === 0;

const projectDir = () => {
  const [key] = readdirSync(join(sb.home, "projects"));
  return join(sb.home, "projects", key!);
};
const entries = () => (existsSync(join(projectDir(), "listing")) ? readdirSync(join(projectDir(), "listing")).sort() : []);
const entriesOf = (id: string) => entries().filter((e) => e.startsWith(`${id}.`));
const anyEntriesOf = (id: string) => entries().filter((e) => e.startsWith(id));
const nameIn = (id: string) => JSON.parse(readFileSync(join(projectDir(), "sessions", id, "session.json"), "utf8")).name as string;

/** What a Tab after `spex session show ` offers, options left out. */
function offered(runner: "bin" | "node" = "bin"): string[] {
  const r = sb.spex(["internal", "complete", "--", "session", "show", "--json", ""], { runner });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return r.stdout.split("\n").filter((w) => w !== "" && !w.startsWith("--")).sort();
}

describe("the listing index, kept by the one writer", () => {
  test("create, rename, clear and close: one entry per session, naming what its record says", () => {
    sb = sandbox();
    const made = newSession(sb, "fix the login bug", ["--no-launch", "--name", "auth fixer"]);
    const short = made.id.slice(0, 8);
    expect(entriesOf(made.id)).toEqual([`${made.id}.auth%20fixer`]);
    expect(offered()).toEqual([short, "auth fixer"].sort());
    expect(sb.spex(["session", "rename", short, "50% done/almost"]).code).toBe(0);
    expect(entriesOf(made.id)).toEqual([`${made.id}.${encodeURIComponent("50% done/almost")}`]);
    expect(offered()).toEqual([short, "50% done/almost"].sort());
    expect(offered("node")).toEqual([short, "50% done/almost"].sort());
    expect(sb.spex(["session", "rename", short, ""]).code).toBe(0);
    expect(entriesOf(made.id)).toEqual([`${made.id}.`]);
    expect(offered()).toEqual([short]);
    const other = newSession(sb, "second", ["--no-launch", "--name", "stays"]);
    expect(sb.spex(["session", "close", short]).code).toBe(0);
    expect(anyEntriesOf(made.id)).toEqual([]);
    expect(entriesOf(other.id)).toEqual([`${other.id}.stays`]);
    expect(offered()).toEqual([other.id.slice(0, 8), "stays"].sort());
  });

  test.each([
    ["name-entry-made", "old-name"],
    ["name-record-landed", "new-name"],
  ])("a rename killed at %s: two entries, and the Tab offers the record's name (%s) alone", (step, shown) => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "old-name" });
    const short = a.session_id.slice(0, 8);
    const r = sb.spex(["session", "rename", short, "new-name"], { env: { SPEX_TEST_CRASH_AT: step } });
    expect(r.code).not.toBe(0);
    expect(nameIn(a.session_id)).toBe(shown);
    expect(entriesOf(a.session_id)).toEqual([`${a.session_id}.new-name`, `${a.session_id}.old-name`]);
    expect(offered()).toEqual([short, shown].sort());
    // The next write that changes the name clears the leftovers.
    expect(sb.spex(["session", "rename", short, "third"]).code).toBe(0);
    expect(entriesOf(a.session_id)).toEqual([`${a.session_id}.third`]);
    expect(offered()).toEqual([short, "third"].sort());
  });

  test("a store from before the index completes from its records, and each record's next write adds its entry", () => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "from-before" });
    const b = seedRecord(sb.home, sb.repo, { name: "also-before" });
    rmSync(join(projectDir(), "listing"), { recursive: true });
    expect(offered()).toEqual([a.session_id.slice(0, 8), "from-before", b.session_id.slice(0, 8), "also-before"].sort());
    // A write that keeps the name (archiving it) still lands its entry.
    expect(sb.spex(["session", "archive", a.session_id.slice(0, 8)]).code).toBe(0);
    expect(entries()).toEqual([`${a.session_id}.from-before`]);
    expect(offered()).toEqual([a.session_id.slice(0, 8), "from-before", b.session_id.slice(0, 8), "also-before"].sort());
  });

  test("names no file name can hold, or that do not encode: the entry says to read the record, and the Tab offers the name", () => {
    sb = sandbox();
    const long = "x".repeat(300);
    const wide = "日本語".repeat(30); // 90 characters, 810 bytes encoded
    const lone = "half \ud800 surrogate";
    const records = [long, wide, lone].map((name) => seedRecord(sb.home, sb.repo, { name }));
    for (const r of records) expect(entriesOf(r.session_id)).toEqual([`${r.session_id}.%%`]);
    const viaIndex = offered();
    expect(viaIndex).toContain(long);
    expect(viaIndex).toContain(wide);
    expect(viaIndex).toHaveLength(6);
    // What a store read record by record offers, to the byte.
    rmSync(join(projectDir(), "listing"), { recursive: true });
    expect(offered()).toEqual(viaIndex);
  });

  test("a fleet of a hundred through the index: every id and name, as a store read record by record gives them", () => {
    sb = sandbox();
    const records = Array.from({ length: 100 }, (_, i) => seedRecord(sb.home, sb.repo, { name: i % 7 === 0 ? "" : `task ${i} ✓ "quoted"` }));
    const want = records.flatMap((r) => [r.session_id.slice(0, 8), ...(r.name ? [r.name] : [])]).sort();
    expect(entries().filter((e) => e[36] === ".")).toHaveLength(100);
    expect(offered()).toEqual(want);
    rmSync(join(projectDir(), "listing"), { recursive: true });
    expect(offered()).toEqual(want);
  });

  test.skipIf(!straceWorks)("with every session in the index a Tab opens no record; a session the index cannot vouch for is read", () => {
    sb = sandbox();
    const records = Array.from({ length: 20 }, (_, i) => seedRecord(sb.home, sb.repo, { name: `n${i}` }));
    const opened = () => {
      const trace = join(sb.dir, `trace-${Date.now()}`);
      const r = spawnSync("strace", ["-f", "-e", "trace=open,openat", "-o", trace, SPEX_BIN, "internal", "complete", "--", "session", "show", ""], { cwd: sb.repo, env: sb.env, encoding: "utf8" });
      expect(r.status).toBe(0);
      return readFileSync(trace, "utf8").split("\n").filter((l) => l.includes("session.json"));
    };
    expect(opened()).toEqual([]);
    // A second entry for one session (a rename under way): that record, and only it, is read.
    const one = records[3]!.session_id;
    mkdirSync(join(projectDir(), "listing"), { recursive: true });
    spawnSync("touch", [join(projectDir(), "listing", `${one}.next`)]);
    const reads = opened();
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain(`${one}/session.json`);
  });
});

const USAGE: UsageFile = {
  version: 1,
  sources: [{ harness: "claude", nativeId: "n1", file: "/nowhere.jsonl", offset: 10, ino: 1, state: { buckets: { "2026-12-01": { "claude-sonnet-4-5": { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0 } } }, recent: [] } }],
  updatedAt: "2026-12-01T10:00:00.000Z",
};
const ls = () => {
  const r = sb.spex(["session", "ls", "--json"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return r.stdout;
};
const rowsById = (text: string) => new Map<string, any>((JSON.parse(text) as Record<string, any>[]).map((r) => [r.id, r]));

describe("the listing index, read by ls", () => {
  test("rows through the index are byte for byte the rows read from every session's files: previews, usage, merged, at fleet scale", () => {
    sb = sandbox();
    // Fifty sessions beside the three made through create: some with usage, some merged, some with both.
    const store0 = projectStore(sb.repo, sb.home);
    const fleet = Array.from({ length: 50 }, (_, i) => seedRecord(sb.home, sb.repo, { name: i % 4 === 0 ? "" : `fleet ${i}`, prompt: `fleet task ${i}:\n\tdo the thing   number ${i}` }));
    for (const [i, r] of fleet.entries()) {
      if (i % 5 === 0) writeUsage(store0, r.session_id, USAGE);
      if (i % 7 === 0) {
        sb.git(["branch", r.branch]);
        writeMergedMark(store0, r.session_id, { branchHead: refOf(sb, r.branch), into: "main", at: "2026-12-01T10:00:00.000Z" });
      }
    }
    const blanks = newSession(sb, "fix the login bug   with\truns of blanks\n\nand a second line", ["--no-launch", "--name", "login"]);
    // 600 three-byte characters: the 512 bytes a row takes end inside one.
    const wide = newSession(sb, `${"日本語".repeat(200)} tail`);
    const plain = newSession(sb, "short");
    const store = projectStore(sb.repo, sb.home);
    writeUsage(store, blanks.id, USAGE);
    writeMergedMark(store, wide.id, { branchHead: refOf(sb, wide.branch), into: "main", at: "2026-12-01T10:00:00.000Z" });
    expect(anyEntriesOf(blanks.id)).toContain(`${blanks.id}+usage.json`);
    expect(anyEntriesOf(wide.id)).toContain(`${wide.id}+merged.json`);
    const viaIndex = ls();
    const rows = rowsById(viaIndex);
    expect(rows.get(blanks.id).preview).toBe("fix the login bug with runs of blanks and a second line");
    expect(rows.get(blanks.id).usage).not.toBeNull();
    expect(rows.get(wide.id).merged).toBe(true);
    expect(rows.get(wide.id).preview).toHaveLength(100);
    expect(rows.get(plain.id)).toMatchObject({ preview: "short", usage: null, merged: false });
    expect(rows.size).toBe(53);
    expect(fleet.filter((r) => rows.get(r.session_id).usage !== null)).toHaveLength(10);
    expect(fleet.filter((r) => rows.get(r.session_id).merged)).toHaveLength(8);
    rmSync(join(projectDir(), "listing"), { recursive: true });
    expect(ls()).toBe(viaIndex);
  });

  test("a store from before the index: side files it wrote without flags still show, and each record's next write flags them", () => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "with-usage" });
    const b = seedRecord(sb.home, sb.repo, { name: "with-merge" });
    sb.git(["branch", b.branch]);
    rmSync(join(projectDir(), "listing"), { recursive: true });
    // As a spex from before the index left them: the files alone.
    writeFileSync(join(projectDir(), "sessions", a.session_id, "usage.json"), JSON.stringify(USAGE));
    writeFileSync(join(projectDir(), "sessions", b.session_id, "merged.json"), JSON.stringify({ branchHead: refOf(sb, b.branch), into: "main", at: "2026-12-01T10:00:00.000Z" }));
    const before = rowsById(ls());
    expect(before.get(a.session_id).usage).not.toBeNull();
    expect(before.get(b.session_id).merged).toBe(true);
    for (const r of [a, b]) expect(sb.spex(["session", "archive", r.session_id.slice(0, 8)]).code).toBe(0);
    expect(anyEntriesOf(a.session_id)).toEqual([`${a.session_id}+usage.json`, `${a.session_id}.with-usage`].sort());
    expect(anyEntriesOf(b.session_id)).toEqual([`${b.session_id}+merged.json`, `${b.session_id}.with-merge`].sort());
    const after = rowsById(sb.spex(["session", "ls", "--json", "--all"]).stdout);
    expect(after.get(a.session_id).usage).toEqual(before.get(a.session_id).usage);
    expect(after.get(b.session_id).merged).toBe(true);
  });

  test("a link planted as listing/: ls and the Tab pass it over, a rename refuses to write through it", () => {
    sb = sandbox();
    const a = seedRecord(sb.home, sb.repo, { name: "real-name", prompt: "the real prompt" });
    const planted = join(sb.dir, "planted");
    mkdirSync(planted);
    // What the planted folder would have every reader believe.
    for (const entry of [`${a.session_id}.fake-name`, `${a.session_id}~a%20fake%20preview`]) writeFileSync(join(planted, entry), "");
    rmSync(join(projectDir(), "listing"), { recursive: true });
    symlinkSync(planted, join(projectDir(), "listing"));
    expect(offered()).toEqual([a.session_id.slice(0, 8), "real-name"].sort());
    expect(rowsById(ls()).get(a.session_id)).toMatchObject({ name: "real-name", preview: "the real prompt" });
    const r = sb.spex(["session", "rename", a.session_id.slice(0, 8), "next", "--json"]);
    expect(r.code).not.toBe(0);
    expect(JSON.parse(r.stdout).error.code).toBe("unsafe_path");
    expect(nameIn(a.session_id)).toBe("real-name");
    // A create refused the same way leaves nothing half made, and no rollback gets stuck on the link.
    const before = madeBySpex(sb);
    const made = sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "refused by the link"]);
    expect(JSON.parse(made.stdout).error.code).toBe("unsafe_path");
    expect(madeBySpex(sb)).toEqual(before);
    const listing = sb.spex(["session", "ls", "--json"]);
    expect({ code: listing.code, stderr: listing.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readdirSync(planted).sort()).toEqual([`${a.session_id}.fake-name`, `${a.session_id}~a%20fake%20preview`]);
  });

  test("thirty sessions whose worktrees share a folder, two of them gone: those two rows alone are retired", () => {
    sb = sandbox();
    const records = Array.from({ length: 30 }, (_, i) => seedRecord(sb.home, sb.repo, { name: `w${i}` }));
    // The first and the last a listing reads (the folder's own order): one asked before the worktrees' folder is listed, one after.
    const order = readdirSync(join(projectDir(), "sessions"));
    const gone = [order[0]!, order[order.length - 1]!].map((id) => records.find((r) => r.session_id === id)!);
    for (const r of gone) rmSync(r.worktree_path, { recursive: true });
    const rows = rowsById(ls());
    for (const r of records) expect({ id: r.name, retired: rows.get(r.session_id).retired }).toEqual({ id: r.name, retired: gone.includes(r) });
    expect([...rows.values()].filter((r) => r.display === "retired")).toHaveLength(2);
  });

  test.skipIf(!straceWorks)("with the index whole, ls opens no prompt and looks up no side file it vouches is absent", () => {
    sb = sandbox();
    for (let i = 0; i < 5; i++) newSession(sb, `task number ${i}`);
    const touched = () => {
      const trace = join(sb.dir, `trace-${Date.now()}`);
      const r = spawnSync("strace", ["-f", "-e", "trace=%file", "-o", trace, SPEX_BIN, "session", "ls", "--json"], { cwd: sb.repo, env: sb.env, encoding: "utf8" });
      expect(r.status).toBe(0);
      const lines = readFileSync(trace, "utf8").split("\n");
      return { prompts: lines.filter((l) => l.includes('/prompt"')).length, sideFiles: lines.filter((l) => l.includes("usage.json") || l.includes("merged.json")).length };
    };
    expect(touched()).toEqual({ prompts: 0, sideFiles: 0 });
    rmSync(join(projectDir(), "listing"), { recursive: true });
    expect(touched()).toEqual({ prompts: 5, sideFiles: 10 });
  });
});
