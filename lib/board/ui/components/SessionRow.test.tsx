import { ESC } from "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { COLUMNS, columnWidths } from "../../model/columns";
import { plain, sessionRow } from "../test-rows";
import { SessionRow } from "./SessionRow";

const NOW = Date.parse("2026-01-01T03:00:00.000Z");

describe("SessionRow", () => {
  test("one line per session, its status in ls's colour, its age since it was made (as ls)", () => {
    const row = sessionRow({ label: "fix the login", display: "working", lifecycle: "active" });
    const widths = columnWidths(COLUMNS, 78, [row]);
    const frame = render(<SessionRow row={row} depth={0} selected={false} columns={COLUMNS} widths={widths} now={NOW} />).lastFrame()!;
    expect(frame).toContain(`${ESC}32m working`);
    expect(plain(frame)).toContain("fix the login");
    expect(plain(frame).trimEnd().endsWith("3h")).toBe(true);
    expect(plain(frame).split("\n")).toHaveLength(1);
  });

  test("a child is indented under its parent by its depth", () => {
    const row = sessionRow({ label: "grandchild" });
    const text = plain(render(<SessionRow row={row} depth={2} selected={false} columns={COLUMNS} widths={columnWidths(COLUMNS, 78, [row])} now={NOW} />).lastFrame());
    expect(text).toContain("  └ grandchild");
  });
});
