#!/usr/bin/env node
// A stand-in agent CLI for fast tests. Installed on PATH as `claude` (or any
// name), it behaves like Claude Code where spex can see it: it records its
// argv, fires the hooks configured in .claude/settings.local.json with
// Claude-shaped payloads, shows a composer, treats a bracketed paste as one
// message, and answers each prompt. Only the model is fake.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { randomUUID } = require("node:crypto");

const LOG = process.env.FAKE_AGENT_LOG || "";
const TURN_MS = Number(process.env.FAKE_AGENT_TURN_MS || 0);
const argv = process.argv.slice(2);

function log(entry) {
  if (LOG) fs.appendFileSync(LOG, JSON.stringify({ t: Date.now(), pid: process.pid, ...entry }) + "\n");
}

let sessionId = randomUUID();
let prompt = null;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--session-id" || a === "--resume") {
    sessionId = argv[++i];
    continue;
  }
  // Flags that take a value, as Claude Code's do: the value is no prompt.
  if (a === "--model" || a === "--effort") {
    i++;
    continue;
  }
  if (a.startsWith("--")) continue;
  prompt = a;
}
log({ kind: "argv", argv, cwd: process.cwd() });

function hooksFor(event) {
  try {
    const settings = JSON.parse(fs.readFileSync(path.join(process.cwd(), ".claude", "settings.local.json"), "utf8"));
    return (settings.hooks?.[event] ?? []).flatMap((g) => g.hooks ?? []).map((h) => h.command).filter(Boolean);
  } catch {
    return [];
  }
}

function fire(event, extra = {}) {
  const payload = JSON.stringify({ session_id: sessionId, cwd: process.cwd(), hook_event_name: event, ...extra });
  for (const command of hooksFor(event)) {
    const r = spawnSync("sh", ["-c", command], { input: payload, encoding: "utf8" });
    log({ kind: "hook", event, status: r.status });
  }
}

const out = (s) => process.stdout.write(s);
function composer() {
  out("\r\n> ");
}

let busy = false;
function turn(text) {
  busy = true;
  log({ kind: "prompt", text });
  fire("UserPromptSubmit", { prompt: text });
  out(`\r\n✻ Working…\r\n`);
  const finish = () => {
    // The spinner line goes when the turn ends, as Claude Code's does: up one line, erase it, the reply in its place.
    out(`\x1b[1A\r\x1b[2K● fake reply to: ${text.split("\n")[0].slice(0, 60)}\r\n`);
    fire("Stop", { stop_hook_active: false });
    busy = false;
    composer();
  };
  if (TURN_MS > 0) setTimeout(finish, TURN_MS);
  else finish();
}

function end(code) {
  fire("SessionEnd", { reason: "exit" });
  process.exit(code);
}
process.on("SIGTERM", () => end(143));
process.on("SIGHUP", () => end(129));

out("fake agent ready\r\n");
fire("SessionStart", { source: argv.includes("--resume") ? "resume" : "startup" });
if (prompt !== null) turn(prompt);
else composer();

if (process.stdin.isTTY) {
  process.stdin.setRawMode(true);
  out("\x1b[?2004h"); // ask the terminal for bracketed paste
}
let buffer = "";
let pasting = false;
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  let s = chunk;
  while (s.length > 0) {
    if (s.startsWith("\x1b[200~")) {
      pasting = true;
      s = s.slice(6);
      continue;
    }
    if (s.startsWith("\x1b[201~")) {
      pasting = false;
      s = s.slice(6);
      continue;
    }
    // Whole code points: half of a surrogate pair echoed alone is not the character.
    const ch = String.fromCodePoint(s.codePointAt(0));
    s = s.slice(ch.length);
    if (ch === "\x03") end(130);
    if (ch === "\x1b") continue; // Escape: interrupt (nothing to interrupt here)
    if (!pasting && (ch === "\r" || ch === "\n")) {
      const text = buffer;
      buffer = "";
      if (text.trim() && !busy) turn(text);
      continue;
    }
    buffer += ch === "\r" ? "\n" : ch;
    out(ch === "\r" || ch === "\n" ? "\r\n  " : ch);
  }
});
