// Helpers for the backend tests: run `spex serve` as a user would (the built
// binary, in the background), talk to it over real HTTP, and run the CLI
// without blocking this process (fake servers here must keep answering).
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { SPEX_BIN, SPEX_CJS, type Sandbox, type RunResult, waitFor } from "../support/sandbox";

/** SPEX_TEST_RUNNER=node runs these suites against the Node bundle instead of the compiled binary. */
function command(args: string[]): [string, string[]] {
  return process.env.SPEX_TEST_RUNNER === "node" ? ["node", [SPEX_CJS, ...args]] : [SPEX_BIN, args];
}

export interface Served {
  url: string;
  token: string;
  pid: number;
  instanceId: string;
  root: string;
  dashboard: string;
  proc: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

export async function serve(sb: Sandbox, opts: { cwd?: string; args?: string[]; env?: Record<string, string> } = {}): Promise<Served> {
  const [cmd, argv] = command(["serve", "--json", ...(opts.args ?? [])]);
  const proc = spawn(cmd, argv, { cwd: opts.cwd ?? sb.repo, env: { ...sb.env, ...(opts.env ?? {}) }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stdout!.on("data", (c) => (out += c));
  proc.stderr!.on("data", (c) => (err += c));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve((exitCode = code))));
  const line = await waitFor(() => (exitCode !== undefined ? Promise.reject(new Error(`serve exited ${exitCode}: ${err}`)) : out.includes("\n") && out.split("\n")[0]), "spex serve to print its address", 15000);
  const info = JSON.parse(line) as Omit<Served, "proc" | "stop" | "stderr">;
  return {
    ...info,
    proc,
    stderr: () => err,
    async stop() {
      if (exitCode === undefined) proc.kill("SIGTERM");
      return exited;
    },
  };
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One real HTTP request; `host` overrides the Host header (fetch would not let us). */
export function http(
  url: string,
  path: string,
  opts: { method?: string; body?: unknown; raw?: string; token?: string; key?: string; host?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const text = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (text !== undefined) headers["content-type"] = "application/json";
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.key !== undefined) headers["idempotency-key"] = opts.key;
    if (opts.host) headers.host = opts.host;
    const req = request(new URL(path, url), { method: opts.method ?? (text !== undefined ? "POST" : "GET"), headers, agent: false });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body, json });
      });
    });
    req.on("error", reject);
    req.end(text);
  });
}

/** Run the CLI without blocking the event loop (spawnSync would freeze servers living in this process). */
export function spexAsync(sb: Sandbox, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult & { ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const [cmd, argv] = command(args);
    const p = spawn(cmd, argv, { cwd: opts.cwd ?? sb.repo, env: { ...sb.env, ...(opts.env ?? {}) }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    p.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started }));
  });
}

/** `git worktree list` of the sandbox repo, for "nothing was made" checks. */
export function worktrees(sb: Sandbox): string {
  return sb.git(["worktree", "list", "--porcelain"]);
}

export function branches(sb: Sandbox): string {
  return sb.git(["branch", "--list", "--format=%(refname:short)"]);
}

export function sessionCount(sb: Sandbox): number {
  const r = sb.spex(["session", "ls", "--all", "--json"]);
  if (r.code !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as unknown[]).length;
}
