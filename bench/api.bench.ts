// Backend figures (issue 7), against `spex serve` from the built binary:
// - GET /api/sessions at 100 and 1,000 sessions (sequential requests, warm),
//   with the server's CPU time per request (from /proc, so a loaded machine
//   that stretches wall time leaves it nearly unchanged);
// - event fan-out: a record written by another process (this one) until each
//   of 10 SSE clients has the change (the folder-watch path, as for CLI and hooks).
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { declareState } from "../lib/sessions";
import { projectStore } from "../lib/store";
import { seedRecord } from "../test/support/records";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../test/support/sandbox";
import { median, ms, table } from "./support";

const REQUESTS = 30;
const CLIENTS = 10;
const ROUNDS = 20;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** User + system CPU time a process has used so far, in ms (Linux; NaN elsewhere). */
let ticksPerSecond: number | undefined;
function cpuMs(pid: number): number {
  ticksPerSecond ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

async function startServe(sb: Sandbox): Promise<{ url: string; token: string; pid: number; stop(): void }> {
  const proc = spawn(SPEX_BIN, ["serve", "--json"], { cwd: sb.repo, env: sb.env, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (c) => (out += c));
  const line = await waitFor(() => out.includes("\n") && out.split("\n")[0], "serve to start", 15000);
  const { url, token } = JSON.parse(line);
  return { url, token, pid: proc.pid!, stop: () => proc.kill("SIGTERM") };
}

/** Every read carries the token (issue 11); a backend that needs none ignores it. */
const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` }, agent: false as const });

function get(url: string, token: string, path: string): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(new URL(path, url), auth(token), (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("end", () => (res.statusCode === 200 ? resolve({ ms: performance.now() - t0, bytes }) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

async function listFigures(count: number): Promise<string[]> {
  const sb = sandbox();
  try {
    for (let i = 0; i < count; i++) seedRecord(sb.home, sb.repo, { prompt: `bench session ${i} ` + "with a prompt ".repeat(20), status: "idle", stopped: true });
    const be = await startServe(sb);
    try {
      for (let i = 0; i < 3; i++) await get(be.url, be.token, "/api/sessions");
      const times: number[] = [];
      let bytes = 0;
      const cpu0 = cpuMs(be.pid);
      for (let i = 0; i < REQUESTS; i++) {
        const r = await get(be.url, be.token, "/api/sessions");
        times.push(r.ms);
        bytes = r.bytes;
      }
      const cpu = (cpuMs(be.pid) - cpu0) / REQUESTS;
      return [String(count), ms(median(times)), ms(pct(times, 90)), ms(cpu), `${(bytes / 1024).toFixed(0)} KiB`];
    } finally {
      be.stop();
    }
  } finally {
    sb.cleanup();
  }
}

interface SseClient {
  seen: Map<string, number>;
  close(): void;
}

function sseClient(url: string, token: string, onOpen: () => void): SseClient {
  const seen = new Map<string, number>();
  let buf = "";
  const req = request(new URL("/api/events", url), auth(token), (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      const now = performance.now();
      buf += chunk;
      let at: number;
      while ((at = buf.indexOf("\n\n")) >= 0) {
        const frame = buf.slice(0, at);
        buf = buf.slice(at + 2);
        if (frame.includes("event: hello")) onOpen();
        const m = /"note":"(fanout round \d+)"/.exec(frame);
        if (m && frame.includes("event: session") && !seen.has(m[1]!)) seen.set(m[1]!, now);
      }
    });
  });
  req.on("error", () => undefined);
  req.end();
  return { seen, close: () => req.destroy() };
}

async function fanOut(): Promise<string[][]> {
  const sb = sandbox();
  try {
    for (let i = 0; i < 99; i++) seedRecord(sb.home, sb.repo, { prompt: `quiet session ${i}`, status: "idle", stopped: true });
    const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "the changing one", status: "idle", stopped: true });
    const store = projectStore(sb.repo, sb.home);
    const be = await startServe(sb);
    let open = 0;
    const clients = Array.from({ length: CLIENTS }, () => sseClient(be.url, be.token, () => open++));
    try {
      await waitFor(() => open === CLIENTS, "every client's hello");
      const firsts: number[] = [];
      const lasts: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const note = `fanout round ${round}`;
        const t0 = performance.now();
        await declareState(store, id, { status: round % 2 ? "idle" : "parked", note });
        await waitFor(() => clients.every((c) => c.seen.has(note)), `round ${round} at every client`, 10000, 1);
        const arrivals = clients.map((c) => c.seen.get(note)! - t0);
        firsts.push(Math.min(...arrivals));
        lasts.push(Math.max(...arrivals));
      }
      return [
        ["first client", String(ROUNDS), ms(median(firsts)), ms(pct(firsts, 90)), ms(Math.max(...firsts))],
        [`all ${CLIENTS} clients`, String(ROUNDS), ms(median(lasts)), ms(pct(lasts, 90)), ms(Math.max(...lasts))],
      ];
    } finally {
      for (const c of clients) c.close();
      be.stop();
    }
  } finally {
    sb.cleanup();
  }
}

export default async function run(): Promise<void> {
  const rows = [await listFigures(100), await listFigures(1000)];
  process.stdout.write(`GET /api/sessions (${REQUESTS} sequential requests, warm)\n`);
  process.stdout.write(table(["sessions", "median", "p90", "server CPU/req", "body"], rows));
  process.stdout.write(`\nevent fan-out: a record written by another process → the change at ${CLIENTS} SSE clients (100 sessions)\n`);
  process.stdout.write(table(["", "rounds", "median", "p90", "max"], await fanOut()));
}

if (require.main === module) void run();
