import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { KEY, frameWith, listening } from "../test-keys";
import { ConfirmDialog } from "./ConfirmDialog";

describe("ConfirmDialog", () => {
  test("y goes ahead; the lines above say what would happen", async () => {
    let answer: boolean | undefined;
    const { stdin, lastFrame } = render(<ConfirmDialog question="close 3f2a?" lines={["Closing throws away:", "file not committed: ?? notes.txt"]} width={60} height={6} onAnswer={(y) => (answer = y)} />);
    await listening(stdin);
    const frame = await frameWith(lastFrame, "close 3f2a? [y/N]");
    expect(frame).toContain("file not committed: ?? notes.txt");
    stdin.write("y");
    await frameWith(() => (answer === undefined ? "" : "answered"), "answered");
    expect(answer).toBe(true);
  });

  test("anything but y is no (N is the default: Enter says no)", async () => {
    for (const key of [KEY.enter, "n", KEY.escape, "x"]) {
      let answer: boolean | undefined;
      const { stdin, lastFrame } = render(<ConfirmDialog question="stop?" lines={[]} width={40} height={3} onAnswer={(y) => (answer = y)} />);
      await listening(stdin);
      await frameWith(lastFrame, "stop? [y/N]");
      stdin.write(key);
      await frameWith(() => (answer === undefined ? "" : "answered"), "answered");
      expect(answer).toBe(false);
    }
  });

  test("a long list of losses is cut to the room, saying how many more", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `file ${i}`);
    const frame = render(<ConfirmDialog question="close?" lines={lines} width={40} height={6} onAnswer={() => {}} />).lastFrame()!;
    expect(frame).toContain("… and 26 more");
    expect(frame).toContain("close? [y/N]");
  });
});
