// `spex mcp` figures against DESIGN.md §11: tools/call session_list with 100
// sessions ≤ 1.5 × (the same `ls --json` work in-process + one MCP round
// trip), and tools/call task_claim beside the same claim in-process. The
// server is the built binary (SPEX_TEST_BIN when set), driven by the SDK's
// own client over stdio; the in-process work runs in this process from the
// same lib/ functions the tools call. Rounds alternate so drift hits both.
import { listSessions } from "../lib/verbs/list";
import { claimTask, newTask } from "../lib/coord";
import { projectStore } from "../lib/store";
import { seedRecord } from "../test/support/records";
import { type Sandbox, sandbox } from "../test/support/sandbox";
import { connectMcp, jsonOf } from "../test/support/mcp";
import { median, ms, table } from "./support";

const SESSIONS = 100;
const ROUNDS = 30;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  return fn().finally(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });
}

export default async function run(): Promise<void> {
  const sb: Sandbox = sandbox();
  try {
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) ids.push(seedRecord(sb.home, sb.repo, { prompt: `bench session ${i} ${"words ".repeat(40)}`, status: i % 3 ? "idle" : "active" }).session_id);
    const me = ids[0]!;
    const store = projectStore(sb.repo, sb.home);
    const env = { SPEX_HOME: sb.home, SPEX_PROJECT_ROOT: sb.repo };
    const mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: me } });
    try {
      // Warm both paths (page cache, the server's lazily loaded modules).
      if (jsonOf(await mcp.call("session_list")).length !== SESSIONS) throw new Error("session_list did not list every session");
      await withEnv(env, () => listSessions(store));

      const rows: { mcp: number[]; local: number[]; ping: number[] } = { mcp: [], local: [], ping: [] };
      for (let i = 0; i < ROUNDS; i++) {
        rows.ping.push((await timed(() => mcp.client.ping()))[0]);
        rows.mcp.push((await timed(() => mcp.call("session_list")))[0]);
        // The CLI's `ls --json`: the listing and its JSON text.
        rows.local.push((await timed(() => withEnv(env, async () => JSON.stringify((await listSessions(store)).rows, null, 2))))[0]);
      }

      // task_claim: one task per round for each side, claimed by id (the claim itself, not a search).
      const claims: { mcp: number[]; local: number[] } = { mcp: [], local: [] };
      const tasks: string[] = [];
      for (let i = 0; i < 2 * ROUNDS; i++) tasks.push((await withEnv(env, () => newTask(store, undefined, { title: `task ${i}`, body: "", dependsOn: [] }))).id);
      for (let i = 0; i < ROUNDS; i++) {
        const [t, r] = await timed(() => mcp.call("task_claim", { id: tasks[2 * i]! }));
        if (r.isError) throw new Error(`task_claim failed: ${r.content[0]?.text}`);
        claims.mcp.push(t);
        claims.local.push((await timed(() => withEnv(env, async () => JSON.stringify(await claimTask(store, ids[1]!, tasks[2 * i + 1]!), null, 2))))[0]);
      }

      const listBudget = 1.5 * (median(rows.local) + median(rows.ping));
      process.stdout.write(`tools/call over stdio to bin/spex mcp (SDK client), ${SESSIONS} sessions, median of ${ROUNDS} (rounds alternate)\n`);
      process.stdout.write(
        table(
          ["what", "MCP tools/call", "same work in-process", "one round trip (ping)", "ratio", "budget"],
          [
            ["session_list", ms(median(rows.mcp)), ms(median(rows.local)), ms(median(rows.ping)), `${(median(rows.mcp) / (median(rows.local) + median(rows.ping))).toFixed(2)}×`, median(rows.mcp) <= listBudget ? "ok (≤ 1.5 × in-process + round trip)" : "MISSED (≤ 1.5 × in-process + round trip)"],
            ["task_claim", ms(median(claims.mcp)), ms(median(claims.local)), ms(median(rows.ping)), `${(median(claims.mcp) / (median(claims.local) + median(rows.ping))).toFixed(2)}×`, "(info)"],
          ],
        ),
      );
      process.stdout.write(`p90: session_list ${ms(rows.mcp.sort((a, b) => a - b)[Math.floor(ROUNDS * 0.9)]!)}, task_claim ${ms(claims.mcp.sort((a, b) => a - b)[Math.floor(ROUNDS * 0.9)]!)}\n`);
    } finally {
      await mcp.close();
    }
  } finally {
    sb.cleanup();
  }
}
