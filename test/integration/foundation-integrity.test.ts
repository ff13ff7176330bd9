// Record integrity through the binary (DESIGN.md §1.1, §1.3): notes round-trip
// byte for byte, corrupt records keep their rows and refuse every writer,
// a record file that is no record keeps its row too, and a retired record stays retired.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readRecordFile } from "../../lib/record";
import { projectStore, sessionPaths } from "../../lib/store";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
beforeAll(() => {
  sb = sandbox();
});
afterAll(() => sb.cleanup());

function recordPath(id: string): string {
  return sessionPaths(projectStore(sb.repo, sb.home), id).record;
}

function storedNote(id: string): string {
  const reading = readRecordFile(recordPath(id), id);
  if (reading.kind !== "ok") throw new Error(`record ${id} reads ${reading.kind}`);
  return reading.record.note;
}

function json(stdout: string): any {
  return JSON.parse(stdout);
}

// One code point at a time, weighted towards the characters that break hand-made JSON.
const noteChar = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('"', "\\", "\n", "\r\n", "\t", "\u0000", "🎉", "👩‍💻", "日本語", "注", "-", "\u2028", "{", "}", "'", "$(x)", "`") },
  { weight: 3, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }).filter((c) => !/^[\uD800-\uDFFF]$/.test(c)) },
);
const anyNote = fc.tuple(fc.boolean(), fc.string({ unit: noteChar, maxLength: 40 })).map(([dash, s]) => (dash ? `-${s}` : s));

describe("note round trip", () => {
  test("a note from stdin (--note-file -) round-trips byte for byte: CLI → session.json → show --json (property)", () => {
    const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "round trip via stdin" });
    fc.assert(
      fc.property(anyNote, (note) => {
        const r = sb.spex(["session", "park", "--session", id, "--note-file", "-"], { input: Buffer.from(note, "utf8") });
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(Buffer.from(storedNote(id), "utf8").equals(Buffer.from(note, "utf8"))).toBe(true);
        const shown = json(sb.spex(["session", "show", id, "--json"]).stdout);
        expect(shown.note).toBe(note);
        expect(shown.record.note).toBe(note);
      }),
      { numRuns: 40 },
    );
  }, 120000);

  test("a note given inline (--note=…) round-trips byte for byte, leading dash included (property)", () => {
    const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "round trip via argv" });
    // argv cannot carry NUL: that is what --note-file is for.
    fc.assert(
      fc.property(anyNote.filter((n) => !n.includes("\u0000")), (note) => {
        const r = sb.spex(["session", "ask", "--session", id, `--note=${note}`]);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(storedNote(id)).toBe(note);
        expect(json(sb.spex(["session", "show", id, "--json"]).stdout).note).toBe(note);
      }),
      { numRuns: 25 },
    );
  }, 120000);

  test("the hook write path carries notes the same way (internal session-state --note-file -)", () => {
    const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "hook note" });
    const note = '-- "asked": a\\b\n\tc\u0000 🎉 日本';
    const r = sb.spex(["internal", "session-state", "asking", "--session", id, "--note-file", "-"], { input: note });
    expect(r.code).toBe(0);
    expect(storedNote(id)).toBe(note);
    expect(json(sb.spex(["session", "show", id, "--json"]).stdout).note).toBe(note);
  });
});

describe("corrupt records", () => {
  let truncated: string;
  let bogus: string;
  let bytes: Map<string, Buffer>;
  beforeAll(() => {
    truncated = seedRecord(sb.home, sb.repo, { prompt: "will be truncated" }).session_id;
    bogus = seedRecord(sb.home, sb.repo, { prompt: "will hold a bogus status" }).session_id;
    const t = readFileSync(recordPath(truncated));
    writeFileSync(recordPath(truncated), t.subarray(0, Math.floor(t.length / 3)));
    writeFileSync(recordPath(bogus), readFileSync(recordPath(bogus), "utf8").replace('"status": "idle"', '"status": "bogus"'));
    bytes = new Map([truncated, bogus].map((id) => [id, readFileSync(recordPath(id))]));
  });

  test("ls --json shows each as corrupt with its file and parse error, beside the healthy rows", () => {
    const r = sb.spex(["session", "ls", "--json"]);
    expect(r.code).toBe(0);
    const rows = json(r.stdout) as any[];
    const t = rows.find((row) => row.id === truncated);
    const b = rows.find((row) => row.id === bogus);
    expect(t).toMatchObject({ kind: "corrupt", display: "corrupt", liveness: "unknown", file: recordPath(truncated) });
    expect(t.error).toMatch(/JSON|Unexpected|Unterminated|end/i);
    expect(b).toMatchObject({ kind: "corrupt", display: "corrupt", file: recordPath(bogus), error: 'status "bogus" is not a lifecycle' });
    expect(rows.some((row) => row.kind === "ok")).toBe(true);
  });

  test("ls shows each as corrupt with its error in the human table, and its file on the line below", () => {
    const r = sb.spex(["session", "ls"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const at = (id: string) => lines.findIndex((l) => l.startsWith(id.slice(0, 8)));
    expect(lines[at(truncated)]).toContain("corrupt");
    expect(lines[at(truncated) + 1]!.trim()).toBe(`file: ${recordPath(truncated)}`);
    expect(lines[at(bogus) + 1]!.trim()).toBe(`file: ${recordPath(bogus)}`);
    expect(lines[at(bogus)]).toContain('status "bogus" is not a lifecycle');
  });

  test("--status corrupt keeps exactly the corrupt rows", () => {
    const rows = json(sb.spex(["session", "ls", "--status", "corrupt", "--json"]).stdout) as any[];
    expect(rows.map((r) => r.id).sort()).toEqual([truncated, bogus].sort());
  });

  test("show names the file and the error", () => {
    const r = sb.spex(["session", "show", bogus, "--json"]);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ kind: "corrupt", file: recordPath(bogus), record: null });
  });

  const writers: [string, (id: string) => string[]][] = [
    ["rename", (id) => ["session", "rename", id, "new-name"]],
    ["done", (id) => ["session", "done", "--propose", "merge", "--session", id, "--note", "x"]],
    ["park", (id) => ["session", "park", "--session", id, "--note", "x"]],
    ["ask", (id) => ["session", "ask", "--session", id, "--note", "x"]],
    ["internal session-state", (id) => ["internal", "session-state", "active", "--session", id]],
  ];
  for (const [verb, args] of writers) {
    test(`${verb} refuses a corrupt record with record_corrupt, exit 1, and leaves its bytes unchanged`, () => {
      for (const id of [truncated, bogus]) {
        const r = sb.spex(args(id));
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/^spex: .* \[record_corrupt\]\n$/);
        expect(r.stderr).toContain(recordPath(id));
        const j = sb.spex([...args(id), "--json"]);
        expect(j.code).toBe(1);
        expect(json(j.stdout).error).toMatchObject({ code: "record_corrupt", file: recordPath(id) });
        expect(readFileSync(recordPath(id)).equals(bytes.get(id)!)).toBe(true);
      }
    });
  }
});

describe("a record file that is no record", () => {
  // Tests run as root, so EACCES cannot be staged; a directory in the record's place stands in for it.
  let id: string;
  beforeAll(() => {
    id = seedRecord(sb.home, sb.repo, { prompt: "unreadable" }).session_id;
    rmSync(recordPath(id));
    mkdirSync(recordPath(id));
  });
  afterAll(() => {
    rmSync(recordPath(id), { recursive: true });
    rmSync(sessionPaths(projectStore(sb.repo, sb.home), id).dir, { recursive: true });
  });

  test("ls keeps its row, naming the file and what is wrong, instead of failing or dropping it", () => {
    const r = sb.spex(["session", "ls", "--json"]);
    expect(r.code).toBe(0);
    const row = (json(r.stdout) as any[]).find((x) => x.id === id);
    expect(row).toMatchObject({ kind: "corrupt", display: "corrupt", liveness: "unknown", file: recordPath(id) });
    expect(row.error).toMatch(/session\.json is a directory/);
    const human = sb.spex(["session", "ls"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(id.slice(0, 8));
  });

  test("a writer refuses it and leaves it as it is", () => {
    const r = sb.spex(["internal", "session-state", "active", "--session", id, "--json"]);
    expect(r.code).toBe(1);
    expect(json(r.stdout).error.code).toBe("record_corrupt");
    expect(readdirSync(recordPath(id))).toEqual([]);
  });

  test("another session addressed by its full id is not held hostage by the unreadable record", () => {
    const healthy = seedRecord(sb.home, sb.repo, { prompt: "healthy neighbour", status: "idle" }).session_id;
    const r = sb.spex(["internal", "session-state", "active", "--session", healthy]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(json(sb.spex(["session", "show", healthy, "--json"]).stdout).lifecycle).toBe("active");
  });
});

describe("retired records", () => {
  test("a record whose worktree folder is gone reads retired, and session-state active refuses with record_retired", () => {
    const rec = seedRecord(sb.home, sb.repo, { prompt: "retire me", status: "idle" });
    rmSync(rec.worktree_path, { recursive: true });
    const rows = json(sb.spex(["session", "ls", "--json", rec.session_id]).stdout) as any[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: rec.session_id, display: "retired", retired: true, liveness: "offline" });
    const before = readFileSync(recordPath(rec.session_id));
    for (const state of ["active", "idle"]) {
      const r = sb.spex(["internal", "session-state", state, "--session", rec.session_id]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/\[record_retired\]\n$/);
    }
    expect(readFileSync(recordPath(rec.session_id)).equals(before)).toBe(true);
    expect(readFileSync(recordPath(rec.session_id), "utf8")).not.toContain("retired");
  });

  test("a retired session can still be renamed (display only)", () => {
    const rec = seedRecord(sb.home, sb.repo, { prompt: "retired but named" });
    rmSync(rec.worktree_path, { recursive: true });
    expect(sb.spex(["session", "rename", rec.session_id, "old-one"]).code).toBe(0);
    expect(json(sb.spex(["session", "show", rec.session_id, "--json"]).stdout)).toMatchObject({ name: "old-one", display: "retired" });
  });
});
