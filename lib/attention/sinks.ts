// Where a notification goes. A command gets the payload on its stdin (its
// argv as configured, never through a shell); a webhook gets it as a JSON
// POST; "desktop" is notify-send (Linux) or osascript (macOS); "tmux" shows
// it on every client of the user's own tmux server and rings its bell.
// Each resolves with what happened or throws why it failed.
import { childProcess } from "../proc/child-process";
import { closeSync, openSync, writeSync } from "node:fs";
import { tmuxSync } from "../tmux";
import type { NotifySink } from "./config";
import { type NotificationPayload, headline } from "./payload";

const COMMAND_TIMEOUT_MS = 10_000;
const WEBHOOK_TIMEOUT_MS = 5_000;

/** What happened, when the sink had nothing to deliver to (no tmux client): said in the log, not a failure. */
export type SinkOutcome = { delivered: true } | { delivered: false; why: string };

function run(argv: string[], input: string, env: NodeJS.ProcessEnv, cwd: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "ignore", "pipe"], env, cwd });
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${argv[0]} did not finish within ${COMMAND_TIMEOUT_MS / 1000} s`));
    }, COMMAND_TIMEOUT_MS);
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-500)));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject((e as NodeJS.ErrnoException).code === "ENOENT" ? new Error(`${argv[0]} was not found`) : e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${argv[0]} exited with ${signal ?? code}${stderr.trim() ? `: ${stderr.trim().split("\n").pop()}` : ""}`));
    });
    // A command that does not read its stdin is not a failure.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

/** The environment a user's command runs with: this process's, without the agent's identity (its `spex` calls are the user's). */
function commandEnv(p: NotificationPayload): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SPEX_NOTIFY_EVENT: p.event, SPEX_NOTIFY_SESSION: p.session_id };
  delete env.SPEX_SESSION_ID;
  delete env.SPEX_RECORD;
  delete env.SPEX_HARNESS;
  delete env.SPEX_SELF_BIN;
  return env;
}

async function postJson(url: string, body: string): Promise<void> {
  const u = new URL(url);
  const { request } = u.protocol === "https:" ? await import("node:https") : await import("node:http");
  await new Promise<void>((resolve, reject) => {
    const req = request(u, { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "spex-notify" } });
    req.setTimeout(WEBHOOK_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`)));
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function desktop(p: NotificationPayload): Promise<void> {
  const { title, body } = headline(p);
  if (process.platform === "darwin") {
    // The texts travel as arguments of the script, never inside its source.
    await run(["osascript", "-e", "on run argv", "-e", "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run", title, body], "", process.env, undefined);
    return;
  }
  // `--`: a title or note that starts with "-" is text, never one of notify-send's options.
  await run(["notify-send", "--app-name=spex", "--", title, body], "", process.env, undefined);
}

function tmuxClients(): SinkOutcome | { clients: { name: string; tty: string }[] } {
  // "" is the user's own server: never spex's socket, whatever SPEX_TMUX says.
  const r = tmuxSync("", ["list-clients", "-F", "#{client_name}\t#{client_tty}"]);
  if (r.code !== 0) return { delivered: false, why: "no tmux server of yours is running" };
  const clients = r.stdout.split("\n").filter(Boolean).map((l) => {
    const [name, tty] = l.split("\t");
    return { name: name ?? "", tty: tty ?? "" };
  });
  if (clients.length === 0) return { delivered: false, why: "no tmux client is attached" };
  return { clients };
}

function tmuxShow(p: NotificationPayload): SinkOutcome {
  const found = tmuxClients();
  if (!("clients" in found)) return found;
  const { title, body } = headline(p);
  // display-message expands formats, then strftime: a label or note with #(…) or %Y must stay text.
  const text = `${title}: ${body}`.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/#/g, "##").replace(/%/g, "%%");
  const failed: string[] = [];
  for (const c of found.clients) {
    const r = tmuxSync("", ["display-message", "-c", c.name, "-d", "8000", text]);
    if (r.code !== 0) failed.push(`${c.name}: ${r.stderr.trim()}`);
    // The bell is the terminal's own: one BEL on the client's tty.
    try {
      const fd = openSync(c.tty, "w");
      try {
        writeSync(fd, "\u0007");
      } finally {
        closeSync(fd);
      }
    } catch {
      // a tty we may not write to: the message still shows
    }
  }
  if (failed.length === found.clients.length) throw new Error(`tmux display-message failed: ${failed.join("; ")}`);
  return { delivered: true };
}

export async function runSink(sink: NotifySink, payload: NotificationPayload, cwd: string | undefined): Promise<SinkOutcome> {
  const json = JSON.stringify(payload);
  switch (sink.kind) {
    case "command":
      await run(sink.argv!, json + "\n", commandEnv(payload), cwd);
      return { delivered: true };
    case "webhook":
      await postJson(sink.url!, json);
      return { delivered: true };
    case "desktop":
      await desktop(payload);
      return { delivered: true };
    case "tmux":
      return tmuxShow(payload);
  }
}

/** A sink as the log and doctor name it. */
export function sinkName(sink: NotifySink): string {
  if (sink.kind === "command") return `command ${sink.argv![0]}`;
  if (sink.kind === "webhook") {
    const u = new URL(sink.url!);
    return `webhook ${u.origin}${u.pathname}`;
  }
  return sink.kind;
}
