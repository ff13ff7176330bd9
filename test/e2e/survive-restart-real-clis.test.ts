// A restart with the real agent CLIs (issue 27 "Must show"): Claude Code,
// Codex and Gemini CLI each run a turn against their loopback stand-in, then
// the machine "goes down" (every agent process and the tmux server killed, no
// hook runs) and comes back with another boot id (the SPEX_TEST_BOOT_ID
// seam). ls, show and the snapshot say machine_restarted; a message sent
// meanwhile waits; `resume --all` brings the session back into its own
// conversation: the request that carries the message carries the earlier
// turn too, and the message reaches the model once.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { findTranscript } from "../../lib/attention/usage";
import { type AgentSandbox, CLAUDE_BIN, CODEX_BIN, GEMINI_BIN, agentSandbox, spexAsync } from "../support/agent-sandbox";
import { explainedWait } from "../support/real-sessions";
import { storedRecord } from "../support/records";
import type { LoggedRequest } from "../support/fake-apis/common";
import { userPrompts } from "../support/fake-apis/anthropic";
import { openaiUserPrompts } from "../support/fake-apis/openai";
import { geminiUserPrompts } from "../support/fake-apis/gemini";

let as: AgentSandbox<any> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

const CASES = [
  { cli: "claude", bin: CLAUDE_BIN, prompts: userPrompts },
  { cli: "codex", bin: CODEX_BIN, prompts: openaiUserPrompts },
  { cli: "gemini", bin: GEMINI_BIN, prompts: geminiUserPrompts },
] as const;

const FIRST = "remember the word papaya";
const WHILE_DOWN = "which word was it";

/** The process group of a pid (field 5 of /proc/<pid>/stat). */
function groupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

for (const c of CASES) {
  describe.skipIf(!c.bin)(`a restart with the real ${c.cli} CLI`, () => {
    test("ls, show and snapshot say machine_restarted; resume --all goes back into the conversation and the message sent meanwhile arrives once", async () => {
      as = await agentSandbox(c.cli as "claude");
      const { sb } = as;
      const api = as.api as { turns(): LoggedRequest[] };
      const prompts = c.prompts as (t: LoggedRequest) => string[];
      const created = await spexAsync(sb, ["session", "new", "--launcher", c.cli, "--json", FIRST]);
      expect(created.stderr).toBe("");
      const id = JSON.parse(created.stdout).session_id as string;
      const wait = explainedWait(sb, id, () => []);
      const show = async () => JSON.parse((await spexAsync(sb, ["session", "show", id, "--json"])).stdout);
      await wait(() => api.turns().some((t) => prompts(t).some((p) => p.includes(FIRST))), "the first prompt at the fake API", 90000);
      await wait(async () => (await show()).display === "idle", "idle after the first turn", 90000);
      const native = storedRecord(sb.home, id).harness_session_id;
      expect(native).toBeTruthy();
      // The turn is on disk before the machine goes down: a CLI writes its transcript after it shows the answer, and one
      // killed before that has no conversation to go back to (Claude Code: "No conversation found").
      const rec = storedRecord(sb.home, id);
      const transcript = () => findTranscript({ harness: c.cli, nativeId: native, cwd: rec.worktree_path, createdAt: rec.createdAt, env: sb.env, deep: true });
      await wait(() => {
        const file = transcript();
        return file !== undefined && existsSync(file) && readFileSync(file, "utf8").includes(FIRST);
      }, "the first turn in the CLI's transcript", 30000);

      // The machine goes down: the agent's whole process group killed outright, then the tmux server; it comes back with another boot id.
      const pid = Number(storedRecord(sb.home, id).agent_pid);
      process.kill(-groupOf(pid), "SIGKILL");
      sb.tmux(["kill-server"]);
      await wait(() => !alive(pid), "the agent gone", 30000);
      sb.env.SPEX_TEST_BOOT_ID = "the-boot-after-the-restart";

      const row = JSON.parse((await spexAsync(sb, ["session", "ls", "--json"])).stdout).find((r: any) => r.id === id);
      expect({ liveness: row.liveness, offlineReason: row.offlineReason }).toEqual({ liveness: "offline", offlineReason: "machine_restarted" });
      expect((await spexAsync(sb, ["session", "show", id])).stdout).toMatch(/^offline +machine_restarted: /m);
      expect(JSON.parse((await spexAsync(sb, ["snapshot", "--json"])).stdout).sessions.find((r: any) => r.id === id).offlineReason).toBe("machine_restarted");

      // A message while it is down waits for it.
      const sent = await spexAsync(sb, ["session", "send", id, WHILE_DOWN, "--json"]);
      expect(sent.stderr).toBe("");
      expect(JSON.parse(sent.stdout).state).toBe("queued");
      const turnsBefore = api.turns().length;

      // A CLI's first start on a busy machine can take a while: the wait for its start hook is widened, not skipped.
      sb.env.SPEX_READY_TIMEOUT_MS = "120000";
      const resumed = await spexAsync(sb, ["session", "resume", "--all", "--json"]);
      const refusals = resumed.stdout ? JSON.parse(resumed.stdout).entries.filter((e: any) => e.error).map((e: any) => e.error) : [];
      expect({ code: resumed.code, stderr: resumed.stderr, refusals }).toEqual({ code: 0, stderr: "", refusals: [] });
      expect(JSON.parse(resumed.stdout).entries.map((e: any) => [e.id, e.reason, e.outcome, e.ready])).toEqual([[id, "machine_restarted", "launched", true]]);
      const argv = readFileSync(`/proc/${storedRecord(sb.home, id).agent_pid}/cmdline`, "utf8").split("\0");
      expect(argv.join(" ")).toContain(native);

      // The request that carries the message carries the earlier turn: the conversation went on, it did not start again.
      const turn = await wait(() => api.turns().slice(turnsBefore).find((t) => prompts(t).some((p) => p.includes(WHILE_DOWN))), "the message at the fake API", 120000);
      expect(prompts(turn).some((p) => p.includes(FIRST))).toBe(true);
      await wait(async () => (await show()).display === "idle", "idle after the message's turn", 90000);
      // Once: one request ends with it, and it was typed once.
      const endingWithIt = api.turns().filter((t) => prompts(t).at(-1)?.includes(WHILE_DOWN));
      expect(endingWithIt).toHaveLength(1);
      expect(prompts(endingWithIt[0]!).filter((p) => p.includes(WHILE_DOWN))).toHaveLength(1);
    }, 400000);
  });
}
