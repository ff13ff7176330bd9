// Stalls with the real agent CLIs (issue 25 item 4, "Must show"): the fake
// API answers 429; Claude Code reports it through its StopFailure hook, Codex
// and Gemini CLI only on their screens (no hook fires). `spex session wait`
// returns `stalled` (exit 2) naming rate_limited, the row needs attention, and
// the rate_limited notification fires once, however many observers see it.
// Then the API recovers and a new turn clears the stall.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentSandbox, CLAUDE_BIN, CODEX_BIN, GEMINI_BIN, agentSandbox, spexAsync } from "../support/agent-sandbox";
import { explainedWait, paneOf, pasteInto, screenOf } from "../support/real-sessions";

let as: AgentSandbox<any> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

const CASES = [
  // Claude Code gives up at once when the API says not to retry (x-should-retry: false), as for a usage limit.
  { cli: "claude" as const, bin: CLAUDE_BIN, fail: { status: 429, shouldRetry: false }, rule: "hook" },
  { cli: "codex" as const, bin: CODEX_BIN, fail: { status: 429 }, rule: "codex.rate-limited" },
  // A daily quota: Gemini CLI shows its usage-limit dialog rather than retrying for minutes.
  { cli: "gemini" as const, bin: GEMINI_BIN, fail: { status: 429 }, rule: "gemini.rate-limited" },
];

function notifications(dir: string): { sink: string; read(): any[] } {
  const log = join(dir, "stall-notices.log");
  const sink = join(dir, "stall-sink.sh");
  writeFileSync(sink, `#!/bin/sh\ncat >> '${log}'\n`);
  chmodSync(sink, 0o755);
  return {
    sink,
    read: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .flatMap((l) => {
              try {
                return [JSON.parse(l)];
              } catch {
                return [];
              }
            })
        : [],
  };
}

for (const c of CASES) {
  describe.skipIf(!c.bin)(`a 429 with the real ${c.cli} CLI`, () => {
    test("wait returns stalled (exit 2, rate_limited), the row needs attention, one notification; a new turn clears it", async () => {
      as = await agentSandbox(c.cli, { fail: c.fail } as never);
      const { sb, api } = as;
      const notices = notifications(sb.dir);
      const config = JSON.parse(readFileSync(join(sb.repo, "spexcode.json"), "utf8"));
      writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ ...config, notify: [{ on: ["rate_limited", "auth_required", "error"], command: [notices.sink] }], notifyMinIntervalSeconds: 0 }));

      const created = await spexAsync(sb, ["session", "new", "--launcher", c.cli, "--json", "say hi"]);
      expect(created.stderr).toBe("");
      const id = JSON.parse(created.stdout).session_id as string;
      const wait = explainedWait(sb, id, () => []);

      // Waiting for the turn to end, as an orchestrator does: the stall ends the wait instead.
      const waited = await spexAsync(sb, ["session", "wait", id, "--idle", "--json", "--timeout", "150"]);
      expect(waited.code).toBe(2);
      const result = JSON.parse(waited.stdout);
      expect(result.outcome).toBe("stalled");
      expect(result.sessions[0]).toMatchObject({ id, stall: "rate_limited", status: "error" });

      const row = JSON.parse((await spexAsync(sb, ["session", "ls", id, "--json"])).stdout)[0];
      expect(row).toMatchObject({ display: "error", stall: "rate_limited" });
      const live = JSON.parse((await spexAsync(sb, ["session", "live", "--json"])).stdout).find((r: any) => r.sessionId === id);
      expect(live).toMatchObject({ status: "needs_attention", stall: "rate_limited" });
      if (c.rule !== "hook") expect(live.statusRule).toBe(c.rule);

      // Once: the wait, this live and another wait all saw it; the first writer notified.
      expect((await spexAsync(sb, ["session", "wait", id, "--json", "--timeout", "5"])).code).toBe(2);
      await wait(() => notices.read().length >= 1, "the rate_limited notification", 30000);
      await spexAsync(sb, ["session", "live", "--json"]);
      const all = notices.read();
      expect(all.map((n) => n.event)).toEqual(["rate_limited"]);
      expect(all[0]).toMatchObject({ session_id: id, stall: "rate_limited", status: "error" });

      // The API answers again; the user's next turn clears the stall.
      api.options.fail = undefined;
      const pane = paneOf(sb, id);
      const turnsBefore = api.turns().length;
      if (c.cli === "gemini") {
        // Its dialog asks first: "Keep trying" is the selected answer.
        sb.tmux(["send-keys", "-t", pane, "Enter"]);
      } else {
        pasteInto(sb, pane, "try again");
        await wait(() => screenOf(sb, pane).includes("try again"), "the prompt typed", 30000);
        sb.tmux(["send-keys", "-t", pane, "Enter"]);
      }
      await wait(() => api.turns().length > turnsBefore, "a turn at the recovered API", 90000);
      const clear = await wait(async () => {
        const r = JSON.parse((await spexAsync(sb, ["session", "ls", id, "--json"])).stdout)[0];
        return r.stall === null && r.display === "idle" ? r : undefined;
      }, "the stall cleared, at rest", 90000);
      expect(clear.lifecycle).toBe("idle");
      const after = JSON.parse((await spexAsync(sb, ["session", "live", "--json"])).stdout).find((r: any) => r.sessionId === id);
      expect(after.stall).toBeUndefined();
      expect(notices.read().filter((n) => n.event === "rate_limited").length).toBe(1);
    }, 400000);
  });
}
