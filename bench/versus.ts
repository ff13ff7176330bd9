// Two builds of spex side by side on the verbs issue 22 must not slow down
// (create, a state write, a queued send, ls, an MCP call), in interleaved rounds so drift on a
// shared machine hits both alike. Each build works in a sandbox of its own, so
// its store grows the same way. A developer's tool: the start-up work's
// "nothing else slower" figures in bench/README.md come from it.
//
//   bun bench/versus.ts <binary before> <binary after> [rounds]
import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { type Sandbox, sandbox } from "../test/support/sandbox";
import { seedRecord } from "../test/support/records";
import { type Timing, median, timeOnce } from "./support";

/** One run of `bin` in the build's sandbox, to its exit; throws when it fails. */
const run = (bin: string, args: string[], sb: Sandbox): Timing => timeOnce({ name: `${bin} ${args.join(" ")}`, cmd: bin, args, cwd: sb.repo, env: sb.env });

/**
 * `spex mcp` started, initialized and asked for `session_list` over stdio
 * (newline-delimited JSON-RPC, as MCP clients speak it): the wall time until
 * the answer, the way an agent's first tool call pays it (no CPU figure: the
 * server's own usage is not reported to this process).
 */
function mcpCall(bin: string, sb: Sandbox): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(bin, ["mcp"], { cwd: sb.repo, env: sb.env, stdio: ["pipe", "pipe", "ignore"] });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    let answered = false;
    const fail = (e: Error) => {
      child.kill();
      reject(e);
    };
    // A server that ends before it answers fails the run instead of hanging it.
    child.on("exit", (code) => !answered && fail(new Error(`${bin} mcp exited (${code}) before answering session_list`)));
    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      pending += d;
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const message = JSON.parse(line) as { id?: number; error?: unknown };
        if (message.error) return fail(new Error(`${bin} mcp: ${JSON.stringify(message.error)}`));
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "session_list", arguments: {} } });
        } else if (message.id === 2) {
          const wall = performance.now() - t0;
          answered = true;
          child.on("exit", () => resolve({ wall, cpu: Number.NaN }));
          child.stdin.end();
        }
      }
    });
    child.on("error", fail);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "versus", version: "0" } } });
  });
}

async function main(): Promise<void> {
  const [before, after, roundsArg] = process.argv.slice(2);
  if (!before || !after) throw new Error("usage: bun bench/versus.ts <binary before> <binary after> [rounds]");
  const rounds = Number(roundsArg ?? 15);
  const builds = [resolve(before), resolve(after)].map((bin) => {
    const sb = sandbox();
    const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "bench state writes", status: "idle" });
    for (let i = 0; i < 99; i++) seedRecord(sb.home, sb.repo, { prompt: `another session ${i}`, name: `task-${i}`, status: "idle" });
    return { bin, sb, id, times: new Map<string, Timing[]>() };
  });
  spawnSync("sync");
  const cases: Array<[string, (b: (typeof builds)[number], i: number) => Timing | Promise<Timing>]> = [
    ["--version", (b) => run(b.bin, ["--version"], b.sb)],
    ["new --no-launch", (b, i) => run(b.bin, ["session", "new", "--no-launch", "--launcher", "shell", `bench task ${i}`], b.sb)],
    ["a state write", (b, i) => run(b.bin, ["internal", "session-state", i % 2 ? "idle" : "active", "--session", b.id], b.sb)],
    ["send --queue-only (the message queued)", (b, i) => run(b.bin, ["session", "send", "--queue-only", b.id, `message ${i}`], b.sb)],
    ["ls --json (100 sessions, then more)", (b) => run(b.bin, ["session", "ls", "--json"], b.sb)],
    ["mcp: start + session_list", (b) => mcpCall(b.bin, b.sb)],
  ];
  try {
    for (const b of builds) for (const [, f] of cases) await f(b, -1); // warm the page cache
    for (let i = 0; i < rounds; i++) {
      for (const [name, f] of cases) {
        for (const b of i % 2 ? [...builds].reverse() : builds) {
          const t = await f(b, i);
          b.times.set(name, [...(b.times.get(name) ?? []), t]);
        }
      }
    }
    const [a, z] = builds;
    const rows = cases.map(([name]) => {
      const wa = median(a!.times.get(name)!.map((t) => t.wall));
      const wz = median(z!.times.get(name)!.map((t) => t.wall));
      const ca = median(a!.times.get(name)!.map((t) => t.cpu));
      const cz = median(z!.times.get(name)!.map((t) => t.cpu));
      const cpu = Number.isNaN(ca) ? "" : `   CPU ${ca.toFixed(1).padStart(7)} → ${cz.toFixed(1).padStart(7)} ms (${(cz / ca).toFixed(2)} ×)`;
      return `${name.padEnd(38)} wall ${wa.toFixed(1).padStart(7)} → ${wz.toFixed(1).padStart(7)} ms (${(wz / wa).toFixed(2)} ×)${cpu}`;
    });
    process.stdout.write(`${before} → ${after}, ${rounds} interleaved rounds (medians)\n${rows.join("\n")}\n`);
  } finally {
    for (const b of builds) b.sb.cleanup();
  }
}

void main().catch((e: Error) => {
  process.stderr.write(`${e.stack ?? e.message}\n`);
  process.exit(1);
});
