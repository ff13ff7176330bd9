import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { KEYS } from "../../model/keys";
import { frameWith, listening } from "../test-keys";
import { HelpView } from "./HelpView";

describe("HelpView", () => {
  test("lists every key the board answers, marks the ones that ask y/N, and any key closes it", async () => {
    let closed = false;
    const { stdin, lastFrame } = render(<HelpView width={100} height={KEYS.length + 1} onClose={() => (closed = true)} />);
    await listening(stdin);
    const frame = await frameWith(lastFrame, "keys (any key closes this)");
    for (const k of KEYS) expect(frame).toContain(k.keys);
    expect(frame).toMatch(/^c +close.*\(asks y\/N\)/m);
    stdin.write("z");
    await frameWith(() => (closed ? "closed" : ""), "closed");
  });
});
