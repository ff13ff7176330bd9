// A session's name is anyone's text (a script building names from issue
// titles, an agent naming its child): what spex prints about it shows its
// control characters as text, so none retitles the window, writes the
// clipboard (OSC 52) or adds a line of its own on the reader's terminal.
import { afterEach, expect, test } from "bun:test";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const HOSTILE = "x\u001b]52;c;dG91Y2ggcHduZWQ=\u0007\u001b]0;owned\u0007\nfake line\u009b2J";

test("session new and rename print a name's escapes and line breaks as text, on their own line", () => {
  sb = sandbox();
  const made = sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--name", HOSTILE, "hello"]);
  expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: "" });
  const renamed = sb.spex(["session", "rename", made.stdout.slice(8, 16), `${HOSTILE}-2`]);
  expect({ code: renamed.code, stderr: renamed.stderr }).toEqual({ code: 0, stderr: "" });
  for (const out of [made.stdout, renamed.stdout]) {
    expect({ out, controls: /[\u0000-\u0009\u000b-\u001f\u007f\u009b]/u.test(out) }).toEqual({ out, controls: false });
    expect(out.split("\n").some((l) => l.startsWith("fake line"))).toBe(false);
    expect(out).toContain("x\\x1b]52;c;dG91Y2ggcHduZWQ=\\x07\\x1b]0;owned\\x07\\x0afake line\\x9b2J");
  }
});

test("the task verbs print a task's title with its escapes and line breaks as text (an agent's task reaches a person's terminal)", () => {
  sb = sandbox();
  const outs = [
    sb.spex(["task", "new", HOSTILE]),
    sb.spex(["task", "claim", "t1"]),
    sb.spex(["task", "release", "t1"]),
    sb.spex(["task", "claim", "t1"]),
    sb.spex(["task", "finish", "t1"]),
    sb.spex(["task", "rm", "t1"]),
  ];
  for (const r of outs) {
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect({ out: r.stdout, controls: /[\u0000-\u0009\u000b-\u001f\u007f\u009b]/u.test(r.stdout) }).toEqual({ out: r.stdout, controls: false });
    expect(r.stdout.split("\n").some((l) => l.startsWith("fake line"))).toBe(false);
    expect(r.stdout).toContain("\\x1b]52;c;dG91Y2ggcHduZWQ=\\x07");
  }
});

test("a reservation conflict shows the other holder's pattern and note with their escapes as text", () => {
  sb = sandbox();
  const first = sb.spex(["reserve", `src/${HOSTILE}`, "--note", HOSTILE, "--as", "alice"]);
  expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: "" });
  const second = sb.spex(["reserve", `src/${HOSTILE}`, "--as", "bob"]);
  const released = sb.spex(["reserve", "release", `src/${HOSTILE}`, "--as", "alice"]);
  for (const out of [first.stdout, second.stdout, released.stdout]) {
    expect({ out, controls: /[\u0000-\u0009\u000b-\u001f\u007f\u009b]/u.test(out) }).toEqual({ out, controls: false });
    expect(out.split("\n").some((l) => l.startsWith("fake line"))).toBe(false);
  }
  expect(second.stdout).toContain("conflict: ");
  expect(second.stdout).toContain("\\x1b]52;c;dG91Y2ggcHduZWQ=\\x07");
});
