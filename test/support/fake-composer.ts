// A fake agent for comms tests: a composer line that takes bracketed pastes
// (multi-line text stays one message) and submits on Enter. Each submitted
// message is appended to $FAKE_LOG as one JSON line, between the two state
// reports a real agent's hooks would make (`active` on submit, `idle` at the
// end of the turn). Run with bun inside a tmux pane:
//   SPEX_SESSION_ID=… SPEX_BIN=… FAKE_LOG=… bun test/support/fake-composer.ts
// FAKE_NO_STATE=1 skips the state reports.
import { appendFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

const id = process.env.SPEX_SESSION_ID ?? "";
const bin = process.env.SPEX_BIN ?? "spex";
const log = process.env.FAKE_LOG ?? "/dev/null";
const reportState = !process.env.FAKE_NO_STATE;

let buffer = "";
let inPaste = false;
let pending = "";
let received = 0;

const out = (s: string) => process.stdout.write(s);
const prompt = () => out("> ");

function report(state: string, ...extra: string[]): void {
  if (!reportState) return;
  const r = spawnSync(bin, ["internal", "session-state", state, "--session", id, ...extra], { encoding: "utf8" });
  if (r.status !== 0) appendFileSync(log + ".errors", `${state}: ${r.stderr}\n`);
}

function submit(): void {
  const text = buffer;
  buffer = "";
  out("\r\n");
  report("active", "--new-turn");
  received++;
  appendFileSync(log, JSON.stringify({ n: received, text }) + "\n");
  out(`(received message ${received}, ${text.length} chars)\r\n`);
  report("idle");
  prompt();
}

function take(ch: string): void {
  if (inPaste) {
    const c = ch === "\r" ? "\n" : ch;
    buffer += c;
    out(c === "\n" ? "\r\n" : c);
    return;
  }
  if (ch === "\r" || ch === "\n") submit();
  else if (ch === "\u0003") process.exit(0);
  else if (ch === "\u007f") {
    if (buffer) {
      buffer = buffer.slice(0, -1);
      out("\b \b");
    }
  } else if (ch >= " ") {
    buffer += ch;
    out(ch);
  }
}

function feed(data: string): void {
  pending += data;
  for (;;) {
    const esc = pending.indexOf("\u001b[20");
    if (esc === -1) {
      // Keep a possible partial marker for the next chunk.
      const cut = pending.lastIndexOf("\u001b");
      const now = cut === -1 ? pending : pending.slice(0, cut);
      for (const ch of now) take(ch);
      pending = cut === -1 ? "" : pending.slice(cut);
      if (pending.length > 6) {
        for (const ch of pending) take(ch);
        pending = "";
      }
      return;
    }
    for (const ch of pending.slice(0, esc)) take(ch);
    const marker = pending.slice(esc, esc + 6);
    if (marker.length < 6) {
      pending = pending.slice(esc);
      return;
    }
    if (marker === "\u001b[200~") inPaste = true;
    else if (marker === "\u001b[201~") inPaste = false;
    pending = pending.slice(esc + 6);
  }
}

out("fake agent ready\r\n");
out("\u001b[?2004h"); // ask the terminal (tmux) to bracket pastes
if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d: string) => feed(d));
prompt();
