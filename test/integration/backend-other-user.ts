// Another local user for the backend attack tests (DESIGN.md §13): a plain
// node script run as `nobody` through setpriv when this process is root and
// the machine allows it, else as ourselves. The attacks travel over loopback
// TCP, so the uid changes what the attacker can read on disk (not the token
// file), not what it can send; both runs exercise the same server code.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../support/sandbox";

const NOBODY = 65534;
const SETPRIV = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"];

let canSwitch: boolean | undefined;
/** True when scripts really run under another uid here. */
export function switchesUser(): boolean {
  canSwitch ??= process.getuid?.() === 0 && spawnSync(SETPRIV[0]!, [...SETPRIV.slice(1), "node", "-e", `process.exit(process.getuid() === ${NOBODY} ? 0 : 1)`]).status === 0;
  return canSwitch;
}

export interface OtherUser {
  /** The uid the scripts run as. */
  uid: number;
  /** A folder both users can write (the impostor's log goes here). */
  dir: string;
  /** Run a script to completion; its stdout is parsed as JSON. */
  run(source: string, args: string[]): Promise<any>;
  /** Start a long-running script; resolves once it prints its first line. */
  start(source: string, args: string[]): Promise<{ proc: ChildProcess; firstLine: string; stop(): Promise<void> }>;
  cleanup(): void;
}

export function otherUser(): OtherUser {
  const dir = mkdtempSync(join(tmpdir(), "spex-other-user-"));
  chmodSync(dir, 0o777);
  const switched = switchesUser();
  let n = 0;
  const argv = (source: string, args: string[]): [string, string[]] => {
    const file = join(dir, `script-${++n}.cjs`);
    writeFileSync(file, source, { mode: 0o644 });
    return switched ? [SETPRIV[0]!, [...SETPRIV.slice(1), "node", file, ...args]] : ["node", [file, ...args]];
  };
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir };
  return {
    uid: switched ? NOBODY : (process.getuid?.() ?? -1),
    dir,
    run(source, args) {
      const [cmd, a] = argv(source, args);
      return new Promise((resolve, reject) => {
        const p = spawn(cmd, a, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        p.stdout.on("data", (c) => (out += c));
        p.stderr.on("data", (c) => (err += c));
        p.on("exit", (code) => {
          try {
            resolve(JSON.parse(out));
          } catch {
            reject(new Error(`attacker script exited ${code}: ${err}${out}`));
          }
        });
      });
    },
    async start(source, args) {
      const [cmd, a] = argv(source, args);
      const proc = spawn(cmd, a, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      let exited = false;
      proc.stdout!.on("data", (c) => (out += c));
      proc.stderr!.on("data", (c) => (err += c));
      const gone = new Promise<void>((r) => proc.on("exit", () => ((exited = true), r())));
      const firstLine = await waitFor(() => (exited ? Promise.reject(new Error(`script exited: ${err}`)) : out.includes("\n") && out.split("\n")[0]!), "the other user's script to start");
      return {
        proc,
        firstLine,
        async stop() {
          if (!exited) proc.kill("SIGKILL");
          await gone;
        },
      };
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A reader that tries the token file, then asks each path without a token; prints what it got. */
export const READER = String.raw`
const fs = require("node:fs");
const [url, tokenFile, ...paths] = process.argv.slice(2);
(async () => {
  let tokenRead;
  try { fs.readFileSync(tokenFile, "utf8"); tokenRead = "read"; } catch (e) { tokenRead = e.code; }
  const answers = [];
  for (const path of paths) {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 1500);
    let status = 0, body = "";
    try {
      const res = await fetch(url + path, { signal: ac.signal });
      status = res.status;
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      // A stream never ends: keep what arrives until the timer fires.
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        body += dec.decode(value);
      }
    } catch (e) {
      if (!status) body = "error: " + e.message;
    }
    clearTimeout(timer);
    answers.push({ path, status, body });
  }
  process.stdout.write(JSON.stringify({ uid: process.getuid(), tokenRead, answers }));
})();
`;

/**
 * An impostor backend: listens on the given port, logs every request it gets
 * (method, url, headers, body) as NDJSON, claims to be the project's backend on
 * /api/instance and answers a create with a made-up record.
 */
export const IMPOSTOR = String.raw`
const http = require("node:http");
const fs = require("node:fs");
const [port, log, root] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    fs.appendFileSync(log, JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }) + "\n");
    res.setHeader("content-type", "application/json");
    if (req.url.startsWith("/api/instance")) {
      res.end(JSON.stringify({ instanceId: "impostor", root, pid: process.pid, startedAt: new Date().toISOString(), version: "0.1.0", proof: "0".repeat(64) }));
    } else if (req.method === "POST") {
      res.statusCode = 201;
      res.end(JSON.stringify({ session_id: "00000000-0000-4000-8000-000000000000", branch: "spex/impostor-0000", worktree_path: "/nowhere", title: "impostor", status: "active", prompt: "", ready: true, replayed: false }));
    } else {
      res.end("{}");
    }
  });
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("listening " + process.getuid() + "\n"));
`;

export function impostorLog(file: string): { method: string; url: string; headers: Record<string, string>; body: string }[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}
