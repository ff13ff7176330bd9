// A fake agent for comms tests: a composer line that takes bracketed pastes
// (multi-line text stays one message) and submits on Enter. Each submitted
// message is appended to $FAKE_LOG as one JSON line, between the two state
// reports a real agent's hooks would make (`active` on submit, `idle` at the
// end of the turn). Run with bun inside a tmux pane:
//   SPEX_SESSION_ID=… SPEX_BIN=… FAKE_LOG=… bun test/support/fake-composer.ts
// FAKE_NO_STATE=1 skips the state reports. FAKE_TURN_MS=N makes each turn
// last N ms, with the hooks run asynchronously; any input that arrives while a
// turn runs is appended to $FAKE_LOG.busy (nothing may be typed into a turn).
// Ctrl-U clears the composer. Paste markers are honoured in their 7-bit (ESC [) and 8-bit (C1 CSI) forms,
// as a strict terminal input parser would.
import { appendFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";

const id = process.env.SPEX_SESSION_ID ?? "";
const bin = process.env.SPEX_BIN ?? "spex";
const log = process.env.FAKE_LOG ?? "/dev/null";
const reportState = !process.env.FAKE_NO_STATE;
const turnMs = Number(process.env.FAKE_TURN_MS) || 0;

let buffer = "";
let inPaste = false;
let pending = "";
let received = 0;
let busy = false;

const out = (s: string) => process.stdout.write(s);
const prompt = () => out("> ");

function report(state: string, ...extra: string[]): void {
  if (!reportState) return;
  const r = spawnSync(bin, ["internal", "session-state", state, "--session", id, ...extra], { encoding: "utf8" });
  if (r.status !== 0) appendFileSync(log + ".errors", `${state}: ${r.stderr}\n`);
}

function reportAsync(state: string, ...extra: string[]): Promise<void> {
  if (!reportState) return Promise.resolve();
  return new Promise((resolve) => {
    const child = spawn(bin, ["internal", "session-state", state, "--session", id, ...extra], { stdio: "ignore" });
    child.on("close", (code) => {
      if (code !== 0) appendFileSync(log + ".errors", `${state}: exit ${code}\n`);
      resolve();
    });
  });
}

/** A turn of FAKE_TURN_MS: busy from the submit until the turn ends, then the Stop hook reports idle. */
async function turn(): Promise<void> {
  busy = true;
  await reportAsync("active", "--new-turn");
  await new Promise((r) => setTimeout(r, turnMs));
  busy = false;
  out(`(turn ${received} done)\r\n`);
  prompt();
  await reportAsync("idle");
}

function submit(): void {
  const text = buffer;
  buffer = "";
  out("\r\n");
  received++;
  if (turnMs > 0) {
    appendFileSync(log, JSON.stringify({ n: received, text }) + "\n");
    void turn();
    return;
  }
  report("active", "--new-turn");
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
  else if (ch === "\u0015") {
    // Ctrl-U clears the composer, redrawn in place as a TUI does (a multi-line buffer starts a fresh prompt line).
    if (buffer.includes("\n")) {
      out("\r\n");
      prompt();
    } else out("\b \b".repeat([...buffer].length));
    buffer = "";
  }
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

// The 8-bit CSI form of a paste marker reads as its 7-bit form.
const C1_MARKER = /\u009b(20[01]~)/gu;

function feed(data: string): void {
  if (busy) appendFileSync(log + ".busy", JSON.stringify({ during: received, data }) + "\n");
  pending += data.replace(C1_MARKER, "\u001b[$1");
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
