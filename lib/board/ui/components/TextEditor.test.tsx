import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { KEY, frameWith, listening } from "../test-keys";
import { TextEditor, editText } from "./TextEditor";

const noKey = { return: false, meta: false, escape: false, backspace: false, delete: false, ctrl: false };

describe("TextEditor", () => {
  test("Enter sends what was typed, Alt+Enter starts a new line, Backspace takes one character", async () => {
    let sent: string | undefined;
    const { stdin, lastFrame } = render(<TextEditor title="send to 3f2a" width={60} height={8} onSubmit={(t) => (sent = t)} onCancel={() => {}} />);
    await listening(stdin);
    await frameWith(lastFrame, "send to 3f2a");
    stdin.write("first line");
    await frameWith(lastFrame, "first line");
    stdin.write(KEY.altEnter);
    stdin.write("second linx");
    await frameWith(lastFrame, "second linx");
    stdin.write(KEY.backspace);
    stdin.write("e");
    await frameWith(lastFrame, "second line█");
    stdin.write(KEY.enter);
    await frameWith(() => (sent === undefined ? "" : "sent"), "sent");
    expect(sent).toBe("first line\nsecond line");
  });

  test("Backspace pressed faster than the board reads (in one read with the letters) erases; no DEL character is sent", async () => {
    let sent: string | undefined;
    const { stdin, lastFrame } = render(<TextEditor title="send to 3f2a" width={60} height={8} onSubmit={(t) => (sent = t)} onCancel={() => {}} />);
    await listening(stdin);
    await frameWith(lastFrame, "send to 3f2a");
    stdin.write(`make tesx${KEY.backspace}t${KEY.backspace}${KEY.backspace}${KEY.backspace}est`);
    await frameWith(lastFrame, "make test█");
    stdin.write(KEY.enter);
    await frameWith(() => (sent === undefined ? "" : "sent"), "sent");
    expect(sent).toBe("make test");
  });

  test("Esc cancels and sends nothing", async () => {
    let cancelled = false;
    let sent = false;
    const { stdin, lastFrame } = render(<TextEditor title="t" width={60} height={5} onSubmit={() => (sent = true)} onCancel={() => (cancelled = true)} />);
    await listening(stdin);
    await frameWith(lastFrame, "Esc cancels");
    stdin.write("x");
    await frameWith(lastFrame, "x█");
    stdin.write(KEY.escape);
    await frameWith(() => (cancelled ? "yes" : ""), "yes");
    expect(sent).toBe(false);
  });

  test("a paste arrives whole, its line breaks kept", () => {
    expect(editText("", "a\r\nb\rc", noKey).text).toBe("a\nb\nc");
    expect(editText("ab", "", { ...noKey, backspace: true }).text).toBe("a");
    // A line and its Enter read at once (typed fast, or sent by a script) sends.
    expect(editText("", "echo hi\r", noKey)).toEqual({ text: "echo hi", submit: true });
    expect(editText("one\ntwo", "u", { ...noKey, ctrl: true }).text).toBe("one\n");
  });
});
