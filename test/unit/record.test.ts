// The one writer and the three readings (DESIGN.md §1.1–1.3).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AFTER_TURN,
  FIELD_ORDER,
  OPTIONAL_FIELDS,
  DECLARATIONS,
  LIFECYCLES,
  PROPOSALS,
  type SessionRecord,
  emptyRecord,
  parseRecord,
  readListedRecordFile,
  readRecordFile,
  serializeRecord,
  writeRecordFile,
} from "../../lib/record";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-record-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ID = "11111111-2222-4333-8444-555555555555";

/** Any record the typed schema allows, with arbitrary text in every string field. */
const anyRecord: fc.Arbitrary<SessionRecord> = fc
  .record({
    strings: fc.dictionary(
      fc.constantFrom(...FIELD_ORDER.filter((k) => !OPTIONAL_FIELDS.has(k) && !["governed", "stopped", "archived", "status", "proposal", "after_turn", "declared", "launch_readiness_pending", "session_id"].includes(k))),
      fc.string({ unit: "binary", maxLength: 80 }),
    ),
    status: fc.constantFrom(...LIFECYCLES),
    proposal: fc.constantFrom(...PROPOSALS),
    after_turn: fc.constantFrom(...AFTER_TURN),
    declared: fc.constantFrom(...DECLARATIONS),
    governed: fc.boolean(),
    stopped: fc.boolean(),
    archived: fc.boolean(),
    optional: fc.dictionary(fc.constantFrom(...OPTIONAL_FIELDS), fc.string({ unit: "binary", minLength: 1, maxLength: 40 })),
  })
  .map(({ strings, optional, ...rest }) => ({ ...emptyRecord(ID, "2026-01-01T00:00:00.000Z"), ...strings, ...rest, ...optional }) as SessionRecord);

function recordFile(): string {
  const sessionDir = join(dir, "sessions", ID);
  mkdirSync(sessionDir, { recursive: true });
  return join(sessionDir, "session.json");
}

describe("the writer", () => {
  test("emits every top-level field on its own line, in the fixed order", () => {
    const text = serializeRecord({ ...emptyRecord(ID), note: "a\nb \"quoted\" \\ end", title: "t" });
    const lines = text.split("\n");
    expect(lines[0]).toBe("{");
    expect(lines.at(-1)).toBe("");
    expect(lines.at(-2)).toBe("}");
    const keys = lines.slice(1, -2).map((l) => /^ {2}"([^"]+)": /.exec(l)?.[1]);
    expect(keys).toEqual(FIELD_ORDER.filter((k) => !OPTIONAL_FIELDS.has(k)));
  });

  test("the spawn placement and options come last and only when set: a record without them keeps its bytes", () => {
    const at = "2026-01-01T00:00:00.000Z";
    const plain = serializeRecord({ ...emptyRecord(ID, at), branch: "spex/x" });
    expect(serializeRecord({ ...emptyRecord(ID, at), branch: "spex/x", directory: "", model: "", effort: "" })).toBe(plain);
    const spawned = serializeRecord({ ...emptyRecord(ID, at), directory: "services/api", model: "opus", effort: "high" });
    expect(spawned).toContain(`  "updatedAt": "${at}",\n  "directory": "services/api",\n  "model": "opus",\n  "effort": "high"\n}`);
    expect(parseRecord(spawned).record).toMatchObject({ directory: "services/api", model: "opus", effort: "high" });
    expect(() => parseRecord(spawned.replace('"opus"', "7"))).toThrow("field model is not a string");
  });

  test("writes base after branch only when the create was pinned, so unpinned records keep their legacy bytes", () => {
    // One timestamp for every record compared, so a millisecond tick cannot split them.
    const at = "2026-01-01T00:00:00.000Z";
    const unpinned = serializeRecord({ ...emptyRecord(ID, at), branch: "spex/x" });
    expect(unpinned).not.toContain('"base"');
    expect(serializeRecord({ ...emptyRecord(ID, at), branch: "spex/x", base: "" })).toBe(unpinned);
    const pinned = serializeRecord({ ...emptyRecord(ID, at), branch: "spex/x", base: "abc123" });
    expect(pinned).toContain('  "branch": "spex/x",\n  "base": "abc123",\n  "node": ""');
  });

  test("any record round-trips through the file exactly (property)", () => {
    const file = recordFile();
    fc.assert(
      fc.property(anyRecord, (record) => {
        writeRecordFile(file, record);
        const reading = readRecordFile(file, ID);
        expect(reading.kind).toBe("ok");
        if (reading.kind !== "ok") return;
        expect(reading.record).toEqual(record);
        // One field per line whatever the text holds.
        const lines = readFileSync(file, "utf8").split("\n");
        const absent = [...OPTIONAL_FIELDS].filter((k) => record[k] === undefined).length;
        expect(lines.length).toBe(FIELD_ORDER.length - absent + 3);
      }),
      { numRuns: 300 },
    );
  });

  test("notes with quotes, backslashes, newlines, tabs, NUL, emoji, CJK and a leading dash survive byte for byte", () => {
    const file = recordFile();
    const note = '-"q" \\ back\\\\slash\nline2\r\n\ttab \u0000 nul 🎉👩‍💻 日本語の注記 \u2028 end';
    writeRecordFile(file, { ...emptyRecord(ID), note });
    const reading = readRecordFile(file, ID);
    expect(reading.kind === "ok" && reading.record.note).toBe(note);
    expect(Buffer.from(reading.kind === "ok" ? reading.record.note : "", "utf8").equals(Buffer.from(note, "utf8"))).toBe(true);
  });

  test("never writes through a link: a session.json that is a symlink is refused (unsafe_path), its target untouched", () => {
    const file = recordFile();
    const target = join(dir, "not-a-record.txt");
    writeFileSync(target, "someone else's bytes\n");
    symlinkSync(target, file);
    expect(() => writeRecordFile(file, { ...emptyRecord(ID), note: "landed" })).toThrow(expect.objectContaining({ code: "unsafe_path" }));
    expect(readFileSync(target, "utf8")).toBe("someone else's bytes\n");
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  test("never writes through a linked session folder: unsafe_path, and the folder it points to is untouched", () => {
    const real = join(dir, "elsewhere");
    mkdirSync(real);
    mkdirSync(join(dir, "sessions"));
    symlinkSync(real, join(dir, "sessions", ID));
    expect(() => writeRecordFile(join(dir, "sessions", ID, "session.json"), emptyRecord(ID))).toThrow(expect.objectContaining({ code: "unsafe_path" }));
    expect(readdirSync(real)).toEqual([]);
  });

  test("refuses to land a record in another session's folder", () => {
    const file = recordFile();
    expect(() => writeRecordFile(file, emptyRecord("99999999-2222-4333-8444-555555555555"))).toThrow(expect.objectContaining({ code: "record_corrupt" }));
    expect(readdirSync(join(dir, "sessions", ID))).toEqual([]);
  });

  test("replaces the file atomically: no temp file is left beside the record", () => {
    const file = recordFile();
    for (let i = 0; i < 5; i++) writeRecordFile(file, { ...emptyRecord(ID), note: String(i) });
    expect(readdirSync(join(dir, "sessions", ID))).toEqual(["session.json"]);
  });

  test('grep -qx \'  "status": "active",\' matches a writer-produced record exactly when its status is active (property, real grep)', () => {
    const file = recordFile();
    fc.assert(
      fc.property(
        fc.constantFrom(...LIFECYCLES),
        // Notes and titles that try to smuggle the status line in.
        fc.oneof(fc.string(), fc.constantFrom('\n  "status": "active",\n', '  "status": "active",', '"status": "active"')),
        fc.string(),
        (status, note, title) => {
          writeRecordFile(file, { ...emptyRecord(ID), status, note, title, name: note });
          const grep = spawnSync("grep", ["-qx", '  "status": "active",', file]);
          expect(grep.status).toBe(status === "active" ? 0 : 1);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("the three readings", () => {
  test("no file reads absent", () => {
    expect(readRecordFile(join(dir, "nope", "session.json"), ID)).toEqual({ kind: "absent", id: ID, file: join(dir, "nope", "session.json") });
  });

  const corruptions: [string, (valid: string) => string, RegExp][] = [
    ["truncated", (v) => v.slice(0, Math.floor(v.length / 2)), /JSON|Unexpected|Unterminated|end/i],
    ["empty", () => "", /JSON|Unexpected|end/i],
    ["a lifecycle outside the enum", (v) => v.replace('"status": "idle"', '"status": "bogus"'), /status "bogus" is not a lifecycle/],
    ["a proposal outside the enum", (v) => v.replace('"proposal": ""', '"proposal": "maybe"'), /proposal "maybe" is not a proposal/],
    ["an after_turn outside the enum", (v) => v.replace('"after_turn": ""', '"after_turn": "explode"'), /after_turn/],
    ["not an object", () => "[1,2]\n", /not a JSON object/],
    ["a boolean field holding a string", (v) => v.replace('"stopped": false', '"stopped": "false"'), /stopped is not a boolean/],
    ["a missing session_id", (v) => v.replace(/ {2}"session_id": "[^"]*",\n/, ""), /session_id is missing/],
    ["malformed readiness-fence bytes", (v) => v.replace('"launch_readiness_pending": ""', '"launch_readiness_pending": "{not json"'), /launch_readiness_pending/],
    [
      "a fence whose frozen lifecycle is outside the enum",
      (v) => v.replace('"launch_readiness_pending": ""', `"launch_readiness_pending": ${JSON.stringify(JSON.stringify({ status: "bogus", proposal: "", note: "", stopped: false, archived: false }))}`),
      /launch_readiness_pending status "bogus"/,
    ],
  ];
  for (const [what, corrupt, error] of corruptions) {
    test(`a record with ${what} reads corrupt, naming the file and the error`, () => {
      const file = recordFile();
      writeRecordFile(file, { ...emptyRecord(ID), worktree_path: dir });
      writeFileSync(file, corrupt(readFileSync(file, "utf8")));
      const reading = readRecordFile(file, ID);
      expect(reading.kind).toBe("corrupt");
      if (reading.kind !== "corrupt") return;
      expect(reading.file).toBe(file);
      expect(reading.error).toMatch(error);
    });
  }

  test("a missing optional key reads as its empty value (older records stay readable)", () => {
    const file = recordFile();
    writeRecordFile(file, { ...emptyRecord(ID), worktree_path: dir });
    writeFileSync(file, readFileSync(file, "utf8").replace(/ {2}"after_turn": "",\n/, ""));
    const reading = readRecordFile(file, ID);
    expect(reading.kind === "ok" && reading.record.after_turn).toBe("");
  });

  // Issue 10 item 3: a record is the record of its folder.
  function otherRecord(): string {
    const other = "99999999-2222-4333-8444-555555555555";
    mkdirSync(join(dir, "sessions", other), { recursive: true });
    const file = join(dir, "sessions", other, "session.json");
    writeRecordFile(file, { ...emptyRecord(other), worktree_path: dir, note: "the other session" });
    return file;
  }

  const notRegular: [string, (file: string) => void, RegExp][] = [
    ["a symbolic link to another session's record", (f) => symlinkSync(otherRecord(), f), /session\.json is a symbolic link/],
    ["a directory", (f) => mkdirSync(f), /session\.json is a directory, not a regular file/],
    ["a symlink loop", (f) => symlinkSync(f, f), /session\.json is a symbolic link/],
    ["a fifo (read without hanging)", (f) => spawnSync("mkfifo", [f]), /session\.json is a fifo, not a regular file/],
    ["a unix socket", (f) => spawnSync("python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", f]), /session\.json is a socket, not a regular file/],
  ];
  for (const [what, plant, error] of notRegular) {
    test(`a session.json that is ${what} reads corrupt, naming what is there`, () => {
      const file = recordFile();
      plant(file);
      const reading = readRecordFile(file, ID);
      expect(reading).toMatchObject({ kind: "corrupt", id: ID, file });
      expect(reading.kind === "corrupt" && reading.error).toMatch(error);
    });
  }

  test("a record inside a session folder that is a symbolic link reads corrupt", () => {
    const real = join(dir, "elsewhere");
    mkdirSync(join(real, ID), { recursive: true });
    writeRecordFile(join(real, ID, "session.json"), { ...emptyRecord(ID), worktree_path: dir });
    mkdirSync(join(dir, "sessions"), { recursive: true });
    symlinkSync(join(real, ID), join(dir, "sessions", ID));
    const reading = readRecordFile(join(dir, "sessions", ID, "session.json"), ID);
    expect(reading.kind === "corrupt" && reading.error).toMatch(/folder .* is a symbolic link/);
  });

  test("a record whose session_id is not its folder's id reads corrupt (a copy of another session's record)", () => {
    const file = recordFile();
    writeFileSync(file, readFileSync(otherRecord()));
    const reading = readRecordFile(file, ID);
    expect(reading.kind === "corrupt" && reading.error).toMatch(/session_id "99999999-2222-4333-8444-555555555555" is not its folder's id/);
  });

  // Issue 10 item 10: bytes are never repaired.
  test("a record with invalid UTF-8 reads corrupt instead of decoding to U+FFFD", () => {
    const file = recordFile();
    writeRecordFile(file, { ...emptyRecord(ID), worktree_path: dir, note: "caf\u00e9" });
    const bytes = readFileSync(file);
    const at = bytes.indexOf(Buffer.from("caf\u00e9", "utf8")) + 3;
    bytes[at] = 0xff; // "café" → "caf\xff\xa9": not UTF-8
    writeFileSync(file, bytes);
    const reading = readRecordFile(file, ID);
    expect(reading.kind === "corrupt" && reading.error).toMatch(/not valid UTF-8/);
  });

  test("a record that starts with a byte-order mark reads corrupt (a BOM is not silently dropped)", () => {
    const file = recordFile();
    writeRecordFile(file, { ...emptyRecord(ID), worktree_path: dir });
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(file)]));
    expect(readRecordFile(file, ID).kind).toBe("corrupt");
  });

  // ls reads each record of a listing its quicker way (readListedRecordFile): every reading must be the same.
  test("a record read in a listing reads exactly as it reads alone, whatever is planted or broken", () => {
    const cases: [string, (file: string) => void][] = [
      ["a plain record", (f) => writeRecordFile(f, { ...emptyRecord(ID), worktree_path: dir })],
      ["a note in several scripts", (f) => writeRecordFile(f, { ...emptyRecord(ID), worktree_path: dir, note: "café 日本 🚀" })],
      ["a note holding U+FFFD itself", (f) => writeRecordFile(f, { ...emptyRecord(ID), worktree_path: dir, note: "odd \uFFFD byte" })],
      ["a retired worktree", (f) => writeRecordFile(f, { ...emptyRecord(ID), worktree_path: join(dir, "gone") })],
      ...corruptions.map(([what, corrupt]): [string, (file: string) => void] => [what, (f) => {
        writeRecordFile(f, { ...emptyRecord(ID), worktree_path: dir });
        writeFileSync(f, corrupt(readFileSync(f, "utf8")));
      }]),
      ...notRegular.map(([what, plant]): [string, (file: string) => void] => [what, plant]),
      ["invalid UTF-8", (f) => {
        writeRecordFile(f, { ...emptyRecord(ID), worktree_path: dir, note: "caf\u00e9" });
        const bytes = readFileSync(f);
        bytes[bytes.indexOf(Buffer.from("caf\u00e9", "utf8")) + 3] = 0xff;
        writeFileSync(f, bytes);
      }],
      ["a byte-order mark", (f) => {
        writeRecordFile(f, { ...emptyRecord(ID), worktree_path: dir });
        writeFileSync(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(f)]));
      }],
      ["another session's record", (f) => writeFileSync(f, readFileSync(otherRecord()))],
      ["nothing", () => {}],
    ];
    for (const [what, plant] of cases) {
      rmSync(join(dir, "sessions"), { recursive: true, force: true });
      const file = recordFile();
      plant(file);
      expect({ what, reading: readListedRecordFile(file, ID) }).toEqual({ what, reading: readRecordFile(file, ID) });
    }
  });

  test("any record reads the same in a listing as alone (property)", () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        const file = recordFile();
        writeRecordFile(file, { ...record, worktree_path: dir });
        expect(readListedRecordFile(file, ID)).toEqual(readRecordFile(file, ID));
      }),
      { numRuns: 150 },
    );
  });

  test("retired is derived from the recorded worktree being gone, never stored", () => {
    const file = recordFile();
    const worktree = join(dir, "wt");
    mkdirSync(worktree);
    writeRecordFile(file, { ...emptyRecord(ID), worktree_path: worktree });
    const live = readRecordFile(file, ID);
    expect(live.kind === "ok" && live.retired).toBe(false);
    rmSync(worktree, { recursive: true });
    const gone = readRecordFile(file, ID);
    expect(gone.kind === "ok" && gone.retired).toBe(true);
    expect(readFileSync(file, "utf8")).not.toContain("retired");
  });

  test("a parsed fence keeps the frozen original beside the candidate", () => {
    const frozen = { status: "parked", proposal: "merge", note: "frozen", stopped: true, archived: false };
    const text = serializeRecord({ ...emptyRecord(ID), status: "active", launch_readiness_pending: JSON.stringify(frozen) });
    const { record, pending } = parseRecord(text);
    expect(record.status).toBe("active");
    expect(pending).toEqual(frozen as never);
  });
});
