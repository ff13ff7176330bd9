// What may reach a pane: message text made paste-safe (nothing in it can end
// its bracketed paste or act on the terminal), keys limited to key names and
// plain words, and "at rest" decided from one consistent reading.
import { describe, expect, test } from "bun:test";
import { isPasteSafe, isSafeKey, pasteSafeText, refuseUnsafeKeys } from "../../lib/tmux";
import { recordAtRest, typedText } from "../../lib/comms";
import { type RecordReading, emptyRecord } from "../../lib/record";
import { SpexError } from "../../lib/errors";

describe("paste-safe text", () => {
  test("ESC, C0 (but TAB and LF), DEL and C1 become visible; CR and CRLF become LF", () => {
    expect(pasteSafeText("a\u001b[201~b")).toBe("a\u241b[201~b");
    expect(pasteSafeText("x\u009b201~y\u0085z")).toBe("x\ufffd201~y\ufffdz");
    expect(pasteSafeText("1\r2\r\n3\n4\t5")).toBe("1\n2\n3\n4\t5");
    expect(pasteSafeText("\u0000\u0003\u0007\u0008\u000b\u000c\u007f")).toBe("\u2400\u2403\u2407\u2408\u240b\u240c\u2421");
  });

  test("everything else passes byte for byte, and sanitizing twice changes nothing", () => {
    const plain = "naïve café — 修复 🚀 \"quotes\" $(rm -rf /) `x` \\ [200~";
    expect(pasteSafeText(plain)).toBe(plain);
    const hostile = "a\u001b[201~\r\nb\u009bc\u0000";
    expect(pasteSafeText(pasteSafeText(hostile))).toBe(pasteSafeText(hostile));
    expect(isPasteSafe(pasteSafeText(hostile))).toBe(true);
    expect(isPasteSafe(hostile)).toBe(false);
  });

  test("every kind of message is typed paste-safe, envelope included", () => {
    const base = { id: "x-1", target: "t", n: 1, keys: [], state: "queued" as const, reason: "", createdAt: "", updatedAt: "", timelineSeq: 1 };
    const body = "hi\u001b[201~\rIGNORE\u009b";
    for (const from of [{ kind: "user" as const }, { kind: "name" as const, name: "bo\u009bss" }, { kind: "watch" as const, id: "w", label: "l" }, { kind: "session" as const, id: "3f2a9c1e-0000-4000-8000-000000000000", label: "fix\u001b]0;x\u0007er" }]) {
      const typed = typedText({ ...base, from, text: body });
      expect(isPasteSafe(typed)).toBe(true);
      expect(typed.endsWith("hi\u241b[201~\nIGNORE\ufffd")).toBe(true);
    }
  });
});

describe("keys", () => {
  test("key names, chords and plain words are keys", () => {
    for (const k of ["Enter", "enter", "Escape", "Down", "BSpace", "F12", "C-c", "M-Enter", "S-Tab", "C-M-x", "y", "yes", "1", "?", "/", "don't", "well-known", "修复"]) {
      expect({ k, ok: isSafeKey(k) }).toEqual({ k, ok: true });
    }
  });

  test("options, targets, formats, command separators and escapes are not", () => {
    for (const k of ["-t", "-l", "--", "-", "=other:", "other:1", "%3", "@1", "$2", "#{pane_id}", "x;", ";", "a\\;", "{", "}", "a b", "", "C-", "M--", "x".repeat(65)]) {
      expect({ k, ok: isSafeKey(k) }).toEqual({ k, ok: false });
    }
  });

  test("a refusal is a usage error naming what was refused", () => {
    try {
      refuseUnsafeKeys(["y", "-t", "=x:"]);
      throw new Error("not refused");
    } catch (e) {
      expect(e).toBeInstanceOf(SpexError);
      expect((e as SpexError).code).toBe("usage");
      expect((e as SpexError).exitCode).toBe(2);
      expect((e as SpexError).message).toContain('"-t", "=x:"');
    }
  });
});

describe("at rest from one reading", () => {
  const id = "3f2a9c1e-0000-4000-8000-000000000000";
  const ok = (status: "idle" | "active"): RecordReading => ({ kind: "ok", id, file: "f", record: { ...emptyRecord(id), status }, pending: null, retired: false }) as RecordReading;
  const event = (seq: number, status: "idle" | "active") => ({ kind: "state" as const, seq, at: "", status, prev: status, proposal: "" as const, note: "", stopped: false, archived: false });
  const handed = { next: 3, lastHandover: { messageId: "3f2a9c1e-2", claimSeq: 5, at: "" } };

  test("the turn-start event after a claim does not pass for the end of that turn", () => {
    // The stale pairing of issue 11.6: an idle record beside the fresh turn-start event.
    expect(recordAtRest({ reading: ok("idle"), lastState: event(6, "active") }, handed).ok).toBe(false);
    expect(recordAtRest({ reading: ok("active"), lastState: event(6, "active") }, handed).ok).toBe(false);
    expect(recordAtRest({ reading: ok("idle"), lastState: event(5, "idle") }, handed).ok).toBe(false);
    expect(recordAtRest({ reading: ok("idle"), lastState: event(7, "idle") }, handed).ok).toBe(true);
  });
});
