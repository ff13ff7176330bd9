// Attention figures (issue 25), each a ratio against a yardstick of the same run:
// - the hook path with notifications configured stays within 5 % of the same
//   path without: the fast path (no change; the shell alone) and a real
//   change through the binary, with notify entries that do not want the
//   transition (config read, nothing started) and that do (a detached
//   delivery started per write);
// - `spex usage` over 1,000 sessions with 10 MB transcripts ≤ 1 s warm
//   (every transcript read once before; nothing new to read), beside
//   `session ls --json` of the same sessions.
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedRecord } from "../test/support/records";
import { REPO_ROOT, SPEX_BIN, sandbox } from "../test/support/sandbox";
import { projectStore, sessionPaths } from "../lib/store";
import { claudeProjectName } from "../lib/attention/usage";
import { announce, payloadOf } from "../lib/attention";
import { median, ms, table, timeCommand } from "./support";

function hookFigures(runs: number): string[][] {
  const sb = sandbox();
  try {
    const hook = join(REPO_ROOT, "hooks", "agent-hook.sh");
    const sink = join(sb.dir, "sink.sh");
    writeFileSync(sink, "#!/bin/sh\ncat > /dev/null\n", { mode: 0o755 });
    const configs: Record<string, unknown> = {
      "no notify entries": {},
      "notify, not for this transition": { notify: [{ on: ["asking", "error"], command: [sink] }, { on: ["review"], webhook: "http://127.0.0.1:9/x" }] },
      "notify on it (a delivery started)": { notify: [{ on: ["idle", "asking"], command: [sink] }], notifyMinIntervalSeconds: 0 },
    };
    const envFor = (id: string) => ({ ...sb.env, SPEX_RECORD: sessionPaths(projectStore(sb.repo, sb.home), id).record, SPEX_BIN, SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: sb.repo });
    const rec = seedRecord(sb.home, sb.repo, { status: "idle", harness: "claude", launcher: "claude", harness_session_id: crypto.randomUUID() });
    const fast: Record<string, number[]> = {};
    const write: Record<string, number[]> = {};
    for (let i = 0; i < runs; i++) {
      // Interleaved, so drift on a shared machine hits every series alike.
      for (const [name, config] of Object.entries(configs)) {
        writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify(config));
        (fast[name] ??= []).push(timeCommand("sh", [hook, "claude", "stop", "Stop"], { env: envFor(rec.session_id), input: "{}" }));
        // A turn and its Stop: two real changes through the binary, the Stop the one a notify entry may want.
        timeCommand("sh", [hook, "claude", "turn", "UserPromptSubmit"], { env: envFor(rec.session_id), input: "{}" });
        (write[name] ??= []).push(timeCommand("sh", [hook, "claude", "stop", "Stop"], { env: envFor(rec.session_id), input: "{}" }));
      }
    }
    const base = Object.keys(configs)[0]!;
    return Object.keys(configs).map((name) => [
      name,
      ms(median(fast[name]!)),
      `${(median(fast[name]!) / median(fast[base]!)).toFixed(3)}`,
      ms(median(write[name]!)),
      `${(median(write[name]!) / median(write[base]!)).toFixed(3)}`,
    ]);
  } finally {
    sb.cleanup();
  }
}

/**
 * What a notify entry adds to a write, in-process (the wall times above
 * drown it on a shared machine): reading the entries, and for a transition
 * one wants, starting the detached delivery (here /bin/true stands for it, so
 * only the start is timed).
 */
async function announceFigures(runs: number): Promise<string[][]> {
  const sb = sandbox();
  const before = process.env.SPEX_SELF_BIN;
  process.env.SPEX_SELF_BIN = "/bin/true";
  try {
    const rec = seedRecord(sb.home, sb.repo, { status: "idle" });
    const store = projectStore(sb.repo, sb.home);
    const payload = payloadOf("idle", rec, { status: "active" });
    const rows: string[][] = [];
    for (const [name, config] of [
      ["no notify entries", {}],
      ["notify, not for this transition", { notify: [{ on: ["asking"], command: ["/bin/true"] }] }],
      ["notify on it (a delivery started)", { notify: [{ on: ["idle"], command: ["/bin/true"] }] }],
    ] as const) {
      writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify(config));
      const t: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await announce(store, payload);
        t.push(performance.now() - t0);
      }
      rows.push([name, ms(median(t))]);
    }
    return rows;
  } finally {
    if (before === undefined) delete process.env.SPEX_SELF_BIN;
    else process.env.SPEX_SELF_BIN = before;
    sb.cleanup();
  }
}

/** About 10 MB of Claude Code transcript: turns of a prompt, replies split per content block, and large tool results. */
function transcript(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  let n = 0;
  const filler = "x".repeat(40_000);
  while (size < bytes) {
    n++;
    const at = new Date(Date.UTC(2026, 10, 1 + (n % 28), 12, 0, 0)).toISOString();
    const usage = { input_tokens: 12, output_tokens: 340, cache_read_input_tokens: 52_000, cache_creation_input_tokens: 1_800 };
    const block = (type: string) => JSON.stringify({ type: "assistant", timestamp: at, uuid: `u${n}${type}`, message: { id: `msg_${n}`, model: "claude-sonnet-4-5-20250929", role: "assistant", content: [{ type }], usage } });
    const chunk = [
      JSON.stringify({ type: "user", timestamp: at, message: { role: "user", content: `step ${n}: go on` } }),
      block("text"),
      block("tool_use"),
      JSON.stringify({ type: "user", timestamp: at, message: { role: "user", content: [{ type: "tool_result", content: filler }] } }),
    ].join("\n") + "\n";
    lines.push(chunk);
    size += chunk.length;
  }
  return lines.join("");
}

function usageFigures(sessions: number, transcriptBytes: number, runs: number): string[][] {
  const sb = sandbox();
  try {
    const original = join(sb.dir, "transcript.jsonl");
    writeFileSync(original, transcript(transcriptBytes));
    for (let i = 0; i < sessions; i++) {
      const r = seedRecord(sb.home, sb.repo, { status: "idle", harness: "claude", launcher: "claude", harness_session_id: crypto.randomUUID(), prompt: `session ${i}` });
      const dir = join(sb.env.HOME!, ".claude", "projects", claudeProjectName(r.worktree_path));
      mkdirSync(dir, { recursive: true });
      // One file's bytes, a name per session: each is read (and counted) on its own.
      linkSync(original, join(dir, `${r.harness_session_id}.jsonl`));
    }
    const cold = timeCommand(SPEX_BIN, ["usage", "--json"], { cwd: sb.repo, env: sb.env, maxBuffer: 256 * 1024 * 1024 });
    const warm: number[] = [];
    const ls: number[] = [];
    for (let i = 0; i < runs; i++) {
      warm.push(timeCommand(SPEX_BIN, ["usage", "--json"], { cwd: sb.repo, env: sb.env, maxBuffer: 256 * 1024 * 1024 }));
      ls.push(timeCommand(SPEX_BIN, ["session", "ls", "--json"], { cwd: sb.repo, env: sb.env, maxBuffer: 256 * 1024 * 1024 }));
    }
    const mb = (transcriptBytes / 1e6).toFixed(0);
    return [
      [`spex usage, ${sessions} sessions × ${mb} MB, cold (every byte read once)`, ms(cold), ""],
      [`spex usage, warm (nothing new)`, ms(median(warm)), `${median(warm) <= 1000 ? "within" : "OVER"} the 1 s budget; ${(median(warm) / median(ls)).toFixed(2)} × ls --json`],
      [`spex session ls --json, same sessions`, ms(median(ls)), "yardstick"],
    ];
  } finally {
    sb.cleanup();
  }
}

export default async function run(): Promise<void> {
  // BENCH_ATTENTION=hook or =usage runs one half.
  const only = process.env.BENCH_ATTENTION ?? "";
  const runs = Number(process.env.BENCH_HOOK_RUNS) || 15;
  if (only !== "usage") {
    process.stdout.write(`hook path (median of ${runs} each, interleaved); ratio to no notify entries (budget ≤ 1.05)\n`);
    process.stdout.write(table(["notify config", "fast path", "ratio", "Stop write", "ratio"], hookFigures(runs)));
    process.stdout.write("\nwhat the notify step adds to a write, in-process (median of 40)\n");
    process.stdout.write(table(["notify config", "added"], await announceFigures(40)));
    process.stdout.write("\n");
  }
  if (only !== "hook") process.stdout.write(table(["usage", "median", "note"], usageFigures(Number(process.env.BENCH_USAGE_SESSIONS) || 1000, 10 * 1024 * 1024, 5)));
}
