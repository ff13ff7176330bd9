import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { KEY, frameWith, listening } from "../test-keys";
import { GroupPicker } from "./GroupPicker";

describe("GroupPicker", () => {
  test("lists every group, no group, and each group; Enter picks the marked one", async () => {
    let picked: string | null | undefined;
    const { stdin, lastFrame } = render(<GroupPicker groups={["api", "api/auth", "web"]} current={null} width={50} height={8} onPick={(g) => (picked = g)} onCancel={() => {}} />);
    await listening(stdin);
    const frame = await frameWith(lastFrame, "› (every group)");
    expect(frame).toContain("(no group)");
    expect(frame).toContain("api/auth");
    stdin.write("j");
    stdin.write("j");
    await frameWith(lastFrame, "› api");
    stdin.write(KEY.enter);
    await frameWith(() => (picked !== undefined ? "picked" : ""), "picked");
    expect(picked).toBe("api");
  });

  test("Esc keeps the group shown before", async () => {
    let cancelled = false;
    const { stdin, lastFrame } = render(<GroupPicker groups={["web"]} current="web" width={50} height={5} onPick={() => {}} onCancel={() => (cancelled = true)} />);
    await listening(stdin);
    await frameWith(lastFrame, "› web");
    stdin.write(KEY.escape);
    await frameWith(() => (cancelled ? "cancelled" : ""), "cancelled");
  });
});
