// The board's pure parts: triage order, the tree with group headers, the
// filter, the header's counts, the column table, and the refusal off a terminal.
import { describe, expect, test } from "bun:test";
import { COLUMNS, columnWidths, fitCell, shownColumns } from "../../lib/board/model/columns";
import { statusCounts } from "../../lib/board/model/counts";
import { filterRows } from "../../lib/board/model/filter";
import { boardLines } from "../../lib/board/model/order";
import { refuseNonTerminal } from "../../lib/board";
import { corruptRow, sessionRow } from "../../lib/board/ui/test-rows";
import { SpexError } from "../../lib/errors";
import type { ListRow } from "../../lib/board/model/services";

const labelOf = (r: ListRow) => (r.kind === "ok" ? r.label : r.shortId);
const ids = (lines: ReturnType<typeof boardLines>) => lines.map((l) => (l.kind === "row" ? `${"-".repeat(l.depth)}${labelOf(l.row)}` : `[${l.path}]`));

describe("board order", () => {
  test("triage: asking, error and proposals first, then working, idle, queued, offline; ties keep ls order", () => {
    const rows = [
      sessionRow({ label: "offline", display: "offline" }),
      sessionRow({ label: "idle", display: "idle" }),
      sessionRow({ label: "queued", display: "queued" }),
      sessionRow({ label: "working", display: "working" }),
      sessionRow({ label: "review", display: "review" }),
      sessionRow({ label: "asking", display: "asking" }),
      sessionRow({ label: "error", display: "error" }),
    ];
    expect(ids(boardLines(rows, "triage"))).toEqual(["asking", "error", "review", "working", "idle", "queued", "offline"]);
    expect(ids(boardLines(rows, "plain"))).toEqual(rows.map((r) => r.label));
  });

  test("a parent rises with its most urgent child, and its children stay under it", () => {
    const parent = sessionRow({ label: "parent", display: "offline" });
    const child = sessionRow({ label: "child", display: "asking", parent: parent.id });
    const other = sessionRow({ label: "other", display: "working" });
    expect(ids(boardLines([other, parent, child], "triage"))).toEqual(["parent", "-child", "other"]);
  });

  test("group headers appear only when a session is filed in one; a child stays with its parent", () => {
    const a = sessionRow({ label: "a", group: "api" });
    const b = sessionRow({ label: "b" });
    const c = sessionRow({ label: "c", group: "web", parent: a.id });
    expect(ids(boardLines([b, a, c], "plain"))).toEqual(["[]", "b", "[api]", "a", "-c"]);
    expect(ids(boardLines([sessionRow({ label: "x" })], "plain"))).toEqual(["x"]);
  });

  test("a parent cycle in hand-edited records does not hang the board", () => {
    const a = sessionRow({ label: "a" });
    const b = sessionRow({ label: "b", parent: a.id });
    a.parent = b.id;
    expect(ids(boardLines([a, b], "triage")).sort()).toEqual(["-b", "a"].sort());
  });
});

describe("board filter", () => {
  test("every word must match (any case); a matching child keeps its parent shown", () => {
    const parent = sessionRow({ label: "refactor auth" });
    const child = sessionRow({ label: "write tests", note: "Which DATABASE?", parent: parent.id });
    const other = sessionRow({ label: "docs" });
    expect(filterRows([parent, child, other], "database which", null).map(labelOf)).toEqual(["refactor auth", "write tests"]);
    expect(filterRows([parent, child, other], "", null)).toHaveLength(3);
  });

  test("a group filter keeps the group and its subgroups; (no group) keeps the ungrouped and broken records", () => {
    const rows = [sessionRow({ label: "a", group: "api" }), sessionRow({ label: "b", group: "api/auth" }), sessionRow({ label: "c", group: "apis" }), sessionRow({ label: "d" }), corruptRow()];
    expect(filterRows(rows, "", "api").map((r) => r.id)).toEqual([rows[0]!.id, rows[1]!.id]);
    expect(filterRows(rows, "", "").map((r) => r.id)).toEqual([rows[3]!.id, rows[4]!.id]);
  });
});

describe("board words", () => {
  test("counts use ls's status words, most urgent first, none for zero", () => {
    const rows = [sessionRow({ display: "idle" }), sessionRow({ display: "working" }), sessionRow({ display: "working" }), sessionRow({ display: "asking" }), corruptRow()];
    expect(statusCounts(rows)).toBe("1 asking · 1 corrupt · 2 working · 1 idle");
  });

  test("an offline row's status says why its agent is gone, as ls does (issue 27)", () => {
    const status = COLUMNS.find((c) => c.key === "status")!;
    const at = { now: 0, depth: 0 };
    expect(status.cell(sessionRow({ display: "idle", liveness: "offline", offlineReason: "machine_restarted" }), at)).toBe("idle · machine_restarted");
    expect(status.cell(sessionRow({ display: "review", liveness: "offline", offlineReason: "tmux_server_gone" }), at)).toBe("review · offline · tmux_server_gone");
    expect(status.cell(sessionRow({ display: "idle", liveness: "offline", offlineReason: "killed", archived: true }), at)).toBe("idle · killed (archived)");
  });

});

describe("board columns", () => {
  test("a new column is one entry; one shown only when some row has a value stays hidden otherwise", () => {
    const rows = [sessionRow({ label: "a" })];
    const ports = { key: "ports", header: "PORTS", width: 11, cell: () => "3000-3009", shown: () => false };
    expect(shownColumns(rows, [...COLUMNS, ports]).map((c) => c.key)).toEqual(shownColumns(rows).map((c) => c.key));
    expect(shownColumns(rows, [...COLUMNS, { ...ports, shown: () => true }]).map((c) => c.key)).toContain("ports");
  });

  test("COST shows once a row has usage, as ls's column does", () => {
    const none = [sessionRow()];
    expect(shownColumns(none).map((c) => c.key)).not.toContain("cost");
    const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, total: 15, costUsd: 1.5, models: ["m"], unpriced: [], updatedAt: "" };
    const rows = [sessionRow(), sessionRow({ usage })];
    const cost = shownColumns(rows).find((c) => c.key === "cost")!;
    expect(cost.cell(rows[1]!, { now: 0, depth: 0 })).toBe("$1.50");
    expect(cost.cell(rows[0]!, { now: 0, depth: 0 })).toBe("");
  });

  test("PORTS shows once a running session holds a port block (issue 26 item 3)", () => {
    const none = [sessionRow()];
    expect(shownColumns(none).map((c) => c.key)).not.toContain("ports");
    const rows = [sessionRow(), sessionRow({ ports: "20000-20009" })];
    const ports = shownColumns(rows).find((c) => c.key === "ports")!;
    expect(ports.cell(rows[1]!, { now: 0, depth: 0 })).toBe("20000-20009");
    expect(ports.cell(rows[0]!, { now: 0, depth: 0 })).toBe("");
  });

  test("MACHINE shows with --all-machines (rows that carry their machine), as wide as the longest name", () => {
    expect(shownColumns([sessionRow()]).map((c) => c.key)).not.toContain("machine");
    const rows: ListRow[] = [{ ...sessionRow(), machine: "here" }, { ...sessionRow(), machine: "build-box" }];
    const shown = shownColumns(rows);
    expect(shown.map((c) => c.key).slice(0, 4)).toEqual(["id", "status", "machine", "label"]);
    const machine = shown.find((c) => c.key === "machine")!;
    expect(machine.cell(rows[1]!, { now: 0, depth: 0 })).toBe("build-box");
    expect(columnWidths(shown, 100, rows)[2]).toBe("build-box".length);
  });

  test("widths fill the line exactly at 80 columns and never go negative on a narrow one", () => {
    const rows = [sessionRow({ display: "close-pending", archived: true })];
    const at80 = columnWidths(COLUMNS, 78, rows);
    expect(at80.reduce((a, b) => a + b, 0) + COLUMNS.length - 1).toBe(78);
    expect(at80[1]).toBe("close-pending (archived)".length);
    expect(columnWidths(COLUMNS, 20, rows).every((w) => w >= 0)).toBe(true);
  });

  test("on a narrow terminal (a 40-column popup) a long status is cut before the label goes", () => {
    const rows = [sessionRow({ label: "fix the login", display: "offline", offlineReason: "tmux_server_gone" }), sessionRow({ label: "docs" })];
    const shown = shownColumns(rows);
    const widths = columnWidths(shown, 38, rows);
    const at = (key: string) => widths[shown.findIndex((c) => c.key === key)]!;
    expect(widths.reduce((a, b) => a + b, 0) + shown.length - 1).toBe(38);
    expect(at("label")).toBeGreaterThanOrEqual(10);
    expect(at("status")).toBeGreaterThanOrEqual(8);
    // Wide enough, the status is whole.
    expect(columnWidths(shown, 100, rows)[1]).toBe("offline · tmux_server_gone".length);
  });

  test("a cell is one line of display text, padded or cut to its cells (wide characters count two)", () => {
    expect(fitCell("a\nb", 5)).toBe("a b  ");
    expect(fitCell("修复登录问题", 7)).toBe("修复登…");
    expect(fitCell("\u001b[31mred", 12)).toBe("\\x1b[31mred ");
  });
});

describe("board off a terminal", () => {
  test("a pipe on stdout or stdin is refused with a stable code and a hint naming ls", () => {
    expect(() => refuseNonTerminal({ isTTY: true }, { isTTY: true }, { TERM: "xterm" })).not.toThrow();
    for (const [out, inp] of [[false, true], [true, false]] as const) {
      let error: unknown;
      try {
        refuseNonTerminal({ isTTY: out }, { isTTY: inp }, { TERM: "xterm" });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SpexError);
      expect((error as SpexError).code).toBe("board_needs_terminal");
      expect((error as SpexError).hint).toContain("spex session ls");
    }
  });

  test("a terminal that cannot move its cursor (TERM=dumb, or no TERM) is refused as not_a_terminal", () => {
    const tty = { isTTY: true };
    expect(() => refuseNonTerminal(tty, tty, { TERM: "xterm-256color" })).not.toThrow();
    for (const env of [{ TERM: "dumb" }, { TERM: "" }, {}]) {
      let error: unknown;
      try {
        refuseNonTerminal(tty, tty, env);
      } catch (e) {
        error = e;
      }
      expect((error as SpexError).code).toBe("not_a_terminal");
      expect((error as SpexError).hint).toContain("spex session live --watch");
    }
  });
});
