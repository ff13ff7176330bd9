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

  test("on a window too short for the list (a 15-row popup) Space pages through it, so q and / can be read too", async () => {
    let closed = false;
    const { stdin, lastFrame } = render(<HelpView width={40} height={10} onClose={() => (closed = true)} />);
    await listening(stdin);
    await frameWith(lastFrame, `keys 1–9 of ${KEYS.length} (Space: more`);
    stdin.write(" ");
    await frameWith(lastFrame, `keys 10–18 of ${KEYS.length}`);
    if (KEYS.length > 18) stdin.write(" ");
    const last = await frameWith(lastFrame, "any key closes this");
    expect(last).toMatch(/^q +quit/m);
    expect(closed).toBe(false);
    stdin.write(" ");
    await frameWith(() => (closed ? "closed" : ""), "closed");
  });
});
