import { ESC } from "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { KEY, frameWith, listening } from "../test-keys";
import { DiffView } from "./DiffView";

const patch = ["diff --git a/a.txt b/a.txt", "--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", "-old line", "+new line", ...Array.from({ length: 40 }, (_, i) => ` context ${i}`)].join("\n");

describe("DiffView", () => {
  test("colours added lines green, removed red, hunks cyan; scrolls with j and Space; q goes back", async () => {
    let closed = false;
    const { stdin, lastFrame } = render(<DiffView diff={{ summary: "spex/x → main: 1 file, +1 −1", patch, uncommitted: [] }} width={80} height={10} onClose={() => (closed = true)} />);
    await listening(stdin);
    const frame = lastFrame()!;
    expect(frame).toContain(`${ESC}32m+new line`);
    expect(frame).toContain(`${ESC}31m-old line`);
    expect(frame).toContain(`${ESC}36m@@ -1,2 +1,2 @@`);
    expect(frame).toContain("spex/x → main: 1 file, +1 −1");
    stdin.write("j");
    await frameWith(lastFrame, "lines 2-9 of 46");
    stdin.write(" ");
    await frameWith(lastFrame, "lines 9-16 of 46");
    stdin.write("G");
    await frameWith(lastFrame, "context 39");
    stdin.write("q");
    await frameWith(() => (closed ? "closed" : ""), "closed");
  });

  test("says it is reading, then a refusal in place of the patch", () => {
    expect(render(<DiffView diff={null} width={60} height={5} onClose={() => {}} />).lastFrame()).toContain("reading the diff…");
    expect(render(<DiffView diff={null} error="record_retired: the worktree is gone" width={60} height={5} onClose={() => {}} />).lastFrame()).toContain("diff: record_retired");
  });

  test("Esc goes back too", async () => {
    let closed = false;
    const { stdin, lastFrame } = render(<DiffView diff={{ summary: "s", patch: "", uncommitted: [] }} width={60} height={5} onClose={() => (closed = true)} />);
    await listening(stdin);
    await frameWith(lastFrame, "lines 1-1 of 1");
    stdin.write(KEY.escape);
    await frameWith(() => (closed ? "closed" : ""), "closed");
  });
});
