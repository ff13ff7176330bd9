// The Stop hook of a Claude Code session waits, briefly, for the turn's reply
// to reach the transcript (Claude Code writes it on a timer). The session is
// already idle meanwhile, so a person can ask `done --then archive` for the
// next turn while that hook still runs: the request must wait for the next
// turn's end, not be carried out by the hook of the turn already over.
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { claudeProjectName } from "../../lib/attention/usage";
import { seedRecord, storedRecord } from "../support/records";
import { type Sandbox, SPEX_BIN, okJson, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

function stopHook(s: Sandbox, id: string): Promise<number | null> {
  const child = spawn(SPEX_BIN, ["internal", "hook", "claude", "stop", "Stop"], { cwd: s.repo, env: { ...s.env, SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: s.repo } });
  child.stdin.end("{}");
  return new Promise((resolve) => child.on("close", resolve));
}

test("done --then archive asked while the ended turn's Stop hook still runs is carried out at the next turn's end", async () => {
  sb = sandbox();
  const s = sb;
  const rec = seedRecord(s.home, s.repo, { status: "active", harness: "claude", launcher: "claude", harness_session_id: crypto.randomUUID() });
  const transcript = join(s.env.HOME!, ".claude", "projects", claudeProjectName(rec.worktree_path), `${rec.harness_session_id}.jsonl`);
  mkdirSync(join(transcript, ".."), { recursive: true });
  const line = (type: string) => appendFileSync(transcript, JSON.stringify({ type, message: { id: `msg_${type}_${Date.now()}`, model: "claude-opus-4-8", usage: { input_tokens: 10, output_tokens: 5 } } }) + "\n");
  line("user");

  // First turn: the reply is not on disk yet, so its hook is still at work when the session reads idle.
  const first = stopHook(s, rec.session_id);
  await waitFor(() => storedRecord(s.home, rec.session_id).status === "idle", "the first Stop hook at rest");
  expect(okJson(s.spex(["session", "done", "--session", rec.session_id, "--then", "archive", "--json"]))).toMatchObject({ afterTurn: "archive", changed: true });
  line("assistant");
  expect(await first).toBe(0);
  // A non-event: the archive a wrong hook would start (in a detached process) has a while to show, and must not.
  const archivedEarly = await waitFor(() => storedRecord(s.home, rec.session_id).archived === true, "an archive", 1500).then(
    () => true,
    () => false,
  );
  expect(archivedEarly).toBe(false);
  expect(storedRecord(s.home, rec.session_id).after_turn).toBe("archive");

  // Next turn: its Stop carries the request out.
  line("user");
  line("assistant");
  expect(await stopHook(s, rec.session_id)).toBe(0);
  await waitFor(() => storedRecord(s.home, rec.session_id).archived === true, "the archive at the next turn's end");
  expect(storedRecord(s.home, rec.session_id).after_turn).toBe("");
}, 60000);
