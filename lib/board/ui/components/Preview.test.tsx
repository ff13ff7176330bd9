import { ESC } from "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { plain, sessionRow } from "../test-rows";
import { PreviewPane, tailLines } from "./Preview";

describe("Preview", () => {
  test("shows the bottom of the screen that fits (where the prompt is), under a title saying it is live", () => {
    const screen = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
    const row = sessionRow({ label: "fix auth" });
    const text = plain(render(<PreviewPane row={row} preview={{ id: row.id, source: "pane", live: true, text: screen }} width={60} height={6} />).lastFrame());
    expect(text).toContain(`── ${row.shortId} fix auth · live`);
    expect(text).toContain("line 39");
    expect(text).toContain("line 35");
    expect(text).not.toContain("line 34");
  });

  test("keeps the pane's colours, and says when the screen is the one saved at stop", () => {
    const row = sessionRow();
    const coloured = render(<PreviewPane row={row} preview={{ id: row.id, source: "pane", live: true, text: `${ESC}31mred text${ESC}0m` }} width={40} height={4} />).lastFrame()!;
    expect(coloured).toContain(`${ESC}31mred text`);
    const saved = plain(render(<PreviewPane row={row} preview={{ id: row.id, source: "last-screen", live: false, text: "bye" }} width={60} height={4} />).lastFrame());
    expect(saved).toContain("last screen saved");
  });

  test("a long line is cut at the width, not wrapped over the lines below", () => {
    expect(tailLines("a\tb", 1)).toEqual(["a    b"]);
    const row = sessionRow();
    const text = plain(render(<PreviewPane row={row} preview={{ id: row.id, source: "pane", live: true, text: "x".repeat(200) + "\nlast" }} width={30} height={4} />).lastFrame());
    const lines = text.split("\n");
    expect(lines.every((l) => l.length <= 30)).toBe(true);
    expect(text).toContain("last");
  });
});
