import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { KEY, frameWith, listening } from "../test-keys";
import { MergeDialog } from "./MergeDialog";

describe("MergeDialog", () => {
  test("pick a strategy, include uncommitted work, Enter, then y merges with those", async () => {
    let merged: [string, boolean] | undefined;
    const { stdin, lastFrame } = render(<MergeDialog label="fix auth" branch="spex/fix-auth-3f2a" width={90} height={5} onMerge={(s, u) => (merged = [s, u])} onCancel={() => {}} />);
    await listening(stdin);
    await frameWith(lastFrame, "merge fix auth (spex/fix-auth-3f2a) onto the main branch");
    stdin.write(KEY.right);
    stdin.write("u");
    await frameWith(lastFrame, "[x] u:");
    stdin.write(KEY.enter);
    await frameWith(lastFrame, "merge spex/fix-auth-3f2a by squash, uncommitted files included? [y/N]");
    stdin.write("y");
    await frameWith(() => (merged ? "merged" : ""), "merged");
    expect(merged).toEqual(["squash", true]);
  });

  test("N at the confirm merges nothing", async () => {
    let merged = false;
    let cancelled = false;
    const { stdin, lastFrame } = render(<MergeDialog label="x" branch="b" width={80} height={5} onMerge={() => (merged = true)} onCancel={() => (cancelled = true)} />);
    await listening(stdin);
    stdin.write("3");
    await frameWith(lastFrame, /3 ff-only/);
    stdin.write(KEY.enter);
    await frameWith(lastFrame, "by ff-only? [y/N]");
    stdin.write("n");
    await frameWith(() => (cancelled ? "cancelled" : ""), "cancelled");
    expect(merged).toBe(false);
  });
});
