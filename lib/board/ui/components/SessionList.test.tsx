import { ESC } from "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { COLUMNS, shownColumns } from "../../model/columns";
import { boardLines } from "../../model/order";
import { ColorContext } from "../theme";
import { corruptRow, plain, sessionRow } from "../test-rows";
import { SessionList, windowStart } from "./SessionList";

const NOW = Date.parse("2026-01-01T00:05:00.000Z");

describe("SessionList", () => {
  test("a row says what ls says: short id, status word (queued #N, archived), label, note; the status coloured as ls colours it", () => {
    const rows = [
      sessionRow({ label: "fix auth", display: "asking", lifecycle: "asking", note: "which database should I use?" }),
      sessionRow({ label: "wait", display: "queued", lifecycle: "queued", queuePosition: 2 }),
      sessionRow({ label: "old", display: "offline", archived: true }),
      corruptRow(),
    ];
    // The columns the board draws for these rows (COST stays hidden: no row has usage).
    const { lastFrame } = render(<SessionList lines={boardLines(rows, "plain")} selectedId={rows[0]!.id} columns={shownColumns(rows)} width={100} height={10} now={NOW} empty="" />);
    const frame = lastFrame()!;
    const text = plain(frame);
    expect(text).not.toContain("COST");
    expect(text).toContain(`› ${rows[0]!.shortId} asking`);
    expect(text).toContain("which database should I use?");
    expect(text).toContain("queued #2");
    expect(text).toContain("offline (archived)");
    expect(text).toContain("(corrupt record)");
    expect(text).toContain("5m");
    // asking is yellow in ls (lib/cli/session-table STATUS_TONE); the selected row is drawn inverted instead.
    expect(frame).toContain(`${ESC}7m`);
    const other = render(<SessionList lines={boardLines(rows, "plain")} selectedId={rows[3]!.id} columns={COLUMNS} width={100} height={10} now={NOW} empty="" />).lastFrame()!;
    expect(other).toContain(`${ESC}33m asking`);
  });

  test("children are drawn under their parent, indented; group headers appear once a session is filed in a group", () => {
    const parent = sessionRow({ label: "parent", group: "api" });
    const child = sessionRow({ label: "child", parent: parent.id, group: "api" });
    const loose = sessionRow({ label: "loose" });
    const text = plain(render(<SessionList lines={boardLines([child, loose, parent], "plain")} selectedId={null} columns={COLUMNS} width={90} height={10} now={NOW} empty="" />).lastFrame());
    const lines = text.split("\n");
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    expect(at("▸ (no group)")).toBeLessThan(at("loose"));
    expect(at("▸ api")).toBeLessThan(at("parent"));
    expect(at("parent")).toBe(at("└ child") - 1);
  });

  test("a long list scrolls to keep the selection in view, and the list never draws past its height", () => {
    const rows = Array.from({ length: 200 }, (_, i) => sessionRow({ label: `session ${i}` }));
    const { lastFrame } = render(<SessionList lines={boardLines(rows, "plain")} selectedId={rows[150]!.id} columns={COLUMNS} width={80} height={12} now={NOW} empty="" />);
    const text = plain(lastFrame());
    expect(text).toContain("› " + rows[150]!.shortId);
    expect(text.split("\n").length).toBeLessThanOrEqual(12);
    expect(windowStart(0, 200, 11)).toBe(0);
    expect(windowStart(199, 200, 11)).toBe(189);
  });

  test("without colour the selection is still marked and no escape sequence is drawn", () => {
    const rows = [sessionRow({ display: "error", lifecycle: "error" }), sessionRow()];
    const frame = render(
      <ColorContext.Provider value={false}>
        <SessionList lines={boardLines(rows, "plain")} selectedId={rows[1]!.id} columns={COLUMNS} width={80} height={6} now={NOW} empty="" />
      </ColorContext.Provider>,
    ).lastFrame()!;
    expect(frame).not.toContain(ESC);
    expect(frame).toContain(`› ${rows[1]!.shortId}`);
  });

  test("a name with terminal controls in it is drawn as visible text, never as controls", () => {
    const rows = [sessionRow({ label: "evil\u001b]0;pwned\u0007 name" })];
    const frame = render(
      <ColorContext.Provider value={false}>
        <SessionList lines={boardLines(rows, "plain")} selectedId={null} columns={COLUMNS} width={100} height={4} now={NOW} empty="" />
      </ColorContext.Provider>,
    ).lastFrame()!;
    expect(frame).not.toContain("\u001b]");
    expect(frame).toContain("\\x1b]0;pwned\\x07");
  });
});
