// Nothing is typed while a turn runs (issue 11.6): a fake agent whose turns
// take time and whose hooks report them asynchronously, as real agents' do,
// while several senders keep claiming its queue. A handover that decides "at
// rest" from a record read before the turn-start hook and a timeline read
// after it types into the running turn; the composer logs any such input.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { startFakeAgent } from "../support/comms";

let sb: Sandbox;
setDefaultTimeout(180000);
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

function send(target: string, text: string, from: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(SPEX_BIN, ["session", "send", target, text, "--from", from], { cwd: sb.repo, env: sb.env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("handover and turns", () => {
  test("senders racing an agent's own turn reports never type into a running turn", async () => {
    const agent = await startFakeAgent(sb, {}, { FAKE_TURN_MS: "120" });
    const senders = ["alpha", "bravo", "charlie", "delta"];
    const perSender = 8;
    await Promise.all(
      senders.map(async (name) => {
        for (let i = 0; i < perSender; i++) {
          const r = await send(agent.id, `${name} ${i}`, name);
          if (r.code !== 0) throw new Error(`send ${name} ${i}: ${r.stderr}`);
        }
      }),
    );
    const total = senders.length * perSender;
    // Hand over what the last turn left queued (the Stop hook's drain does this too).
    await waitFor(() => {
      if (agent.received().length < total) sb.spex(["session", "deliver", "--patience", "200"]);
      return agent.received().length >= total;
    }, "every message", 120000, 250);
    const got = agent.received().map((t) => t.split("\n").pop()!);
    expect(new Set(got).size).toBe(total);
    expect(agent.typedDuringTurns()).toEqual([]);
  });
});
