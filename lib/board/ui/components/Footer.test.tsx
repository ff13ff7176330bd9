import { ESC } from "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { ColorContext } from "../theme";
import { Footer } from "./Footer";

describe("Footer", () => {
  test("shows the keys when nothing was said, cut to the width", () => {
    const { lastFrame } = render(<Footer message={null} width={40} />);
    const frame = lastFrame()!;
    expect(frame).toContain("↑↓ move  ⏎ attach");
    expect(frame.replace(/\u001b\[[0-9;]*m/g, "").length).toBeLessThanOrEqual(40);
  });

  test("an error replaces the keys, in red; without colour no escape sequence at all", () => {
    const coloured = render(<Footer message={{ text: "merge_conflict: nothing changed", tone: "error" }} width={60} />).lastFrame()!;
    expect(coloured).toContain("merge_conflict: nothing changed");
    expect(coloured).toContain(`${ESC}31m`);
    const plain = render(
      <ColorContext.Provider value={false}>
        <Footer message={{ text: "merge_conflict: nothing changed", tone: "error" }} width={60} />
      </ColorContext.Provider>,
    ).lastFrame()!;
    expect(plain).toContain("merge_conflict: nothing changed");
    expect(plain).not.toContain(ESC);
  });
});
