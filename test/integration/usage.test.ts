// `spex usage`, `ls`'s COST column and `show` over transcripts where each
// harness keeps them (issue 25 item 2). The transcripts are the real CLIs'
// (test/fixtures/transcripts), placed for seeded sessions by their native ids.
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, okJson, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { claudeProjectName } from "../../lib/attention/usage";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

const FIXTURES = join(__dirname, "..", "fixtures", "transcripts");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

function place(s: Sandbox) {
  const home = s.env.HOME!;
  const claude = seedRecord(s.home, s.repo, { harness: "claude", launcher: "claude", harness_session_id: "aaaaaaaa-1111-4111-8111-111111111111", prompt: "claude work" });
  const codex = seedRecord(s.home, s.repo, { harness: "codex", launcher: "codex", harness_session_id: "01a2339e-bf0a-7bb1-8a67-352e7bfe1011", prompt: "codex work" });
  const gemini = seedRecord(s.home, s.repo, { harness: "gemini", launcher: "gemini", harness_session_id: "bbbbbbbb-2222-4222-8222-222222222222", prompt: "gemini work" });
  const shell = seedRecord(s.home, s.repo, { prompt: "a shell" });

  const claudeFile = join(home, ".claude", "projects", claudeProjectName(claude.worktree_path), `${claude.harness_session_id}.jsonl`);
  mkdirSync(join(claudeFile, ".."), { recursive: true });
  writeFileSync(claudeFile, fixture("claude-2.1.197-067d5678-8f33-4176-b2a3-4317be69bb55.jsonl"));

  // Codex files a rollout under the day it began (the session's createdAt is today).
  const now = new Date();
  const day = [String(now.getFullYear()), String(now.getMonth() + 1).padStart(2, "0"), String(now.getDate()).padStart(2, "0")];
  const codexDir = join(home, ".codex", "sessions", ...day);
  mkdirSync(codexDir, { recursive: true });
  writeFileSync(join(codexDir, `rollout-2026-12-01T21-59-31-${codex.harness_session_id}.jsonl`), fixture("codex-0.171.0-rollout.jsonl"));

  const gemDir = join(home, ".gemini", "tmp", "gemini-work", "chats");
  mkdirSync(gemDir, { recursive: true });
  writeFileSync(join(home, ".gemini", "projects.json"), JSON.stringify({ projects: { [gemini.worktree_path]: "gemini-work" } }));
  const gem = fixture("gemini-0.61.0-session.jsonl").split("\n");
  gem[0] = JSON.stringify({ ...JSON.parse(gem[0]!), sessionId: gemini.harness_session_id });
  writeFileSync(join(gemDir, `session-2026-12-01T22-05-${gemini.harness_session_id.slice(0, 8)}.jsonl`), gem.join("\n"));
  return { claude, codex, gemini, shell, claudeFile };
}

describe("spex usage", () => {
  test("adds up each harness's transcript by session, launcher and day; --since keeps days", () => {
    sb = sandbox();
    const s = sb;
    const { claude, codex, gemini } = place(s);
    const report = okJson(s.spex(["usage", "--json"]));
    const byKey = Object.fromEntries(report.lines.map((l: any) => [l.key, l]));
    expect(byKey[claude.session_id.slice(0, 8)]).toMatchObject({ label: "claude work", sessions: 1, input: 200, output: 40, cacheRead: 60, cacheWrite: 80, total: 380 });
    expect(byKey[codex.session_id.slice(0, 8)]).toMatchObject({ input: 140, output: 40, cacheRead: 60, cacheWrite: 0 });
    expect(byKey[gemini.session_id.slice(0, 8)]).toMatchObject({ input: 140, output: 54, cacheRead: 60, cacheWrite: 0 });
    // The shell session has no transcript: no line.
    expect(report.lines.length).toBe(3);
    expect(report.total).toMatchObject({ sessions: 3, input: 480, output: 134, cacheRead: 180, cacheWrite: 80 });
    // claude-opus-4-8: 200×5 + 40×25 + 60×0.5 + 80×6.25 per million.
    expect(byKey[claude.session_id.slice(0, 8)].costUsd).toBeCloseTo((200 * 5 + 40 * 25 + 60 * 0.5 + 80 * 6.25) / 1e6, 9);

    const launchers = okJson(s.spex(["usage", "--by", "launcher", "--json"]));
    expect(launchers.lines.map((l: any) => l.key).sort()).toEqual(["claude", "codex", "gemini"]);
    // The transcripts were written on 2026-12-01 (UTC): that is their day, whenever the report runs.
    expect(okJson(s.spex(["usage", "--by", "day", "--json"])).lines.map((l: any) => l.key)).toEqual(["2026-12-01"]);
    expect(okJson(s.spex(["usage", "--since", "2026-12-02", "--json"])).lines).toEqual([]);
    expect(okJson(s.spex(["usage", "--since", "2026-12-01", "--json"])).total.total).toBe(report.total.total);
    expect(s.spex(["usage", "--since", "last tuesday"]).stderr).toContain("is not a day");

    const table = s.spex(["usage"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^SESSION\s+SESSIONS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+TOTAL\s+COST/);
    expect(table.stdout).toMatch(/\ntotal\s+3\s+480\s+134\s+180\s+80\s+874\s/);
  });

  test("a transcript is read only past the last read: bytes before it are never read again, a new line is counted once", () => {
    sb = sandbox();
    const s = sb;
    const { claude, claudeFile } = place(s);
    const first = okJson(s.spex(["usage", "--json"])).total;
    // Scribble over what was already counted (same length, same file): a reader starting over would count other numbers.
    const text = readFileSync(claudeFile, "utf8");
    writeFileSync(claudeFile, text.replace(/"input_tokens":100/g, '"input_tokens":999'));
    expect(okJson(s.spex(["usage", "--json"])).total).toEqual(first);
    // One more assistant message, written in two parts as a CLI mid-write would.
    const line = JSON.stringify({ type: "assistant", timestamp: "2026-12-01T23:00:00.000Z", message: { id: "msg_extra", model: "claude-opus-4-8", usage: { input_tokens: 7, output_tokens: 3 } } });
    appendFileSync(claudeFile, line.slice(0, 20));
    expect(okJson(s.spex(["usage", "--json"])).total).toEqual(first);
    appendFileSync(claudeFile, line.slice(20) + "\n");
    const after = okJson(s.spex(["usage", "--json"])).total;
    expect(after.input - first.input).toBe(7);
    expect(after.output - first.output).toBe(3);
    // The same message again (another content block of it): still counted once.
    appendFileSync(claudeFile, line + "\n");
    expect(okJson(s.spex(["usage", "--json"])).total).toEqual(after);
    const usageFile = JSON.parse(readFileSync(join(s.home, "projects", readdirSync(join(s.home, "projects"))[0]!, "sessions", claude.session_id, "usage.json"), "utf8"));
    expect(usageFile.sources[0].offset).toBe(readFileSync(claudeFile).length);
  });

  test("ls shows a COST column once a session has usage; show and ls --json carry it; an unknown model shows tokens, cost null", () => {
    sb = sandbox();
    const s = sb;
    const { claude, claudeFile } = place(s);
    expect(s.spex(["session", "ls"]).stdout.split("\n")[0]).not.toContain("COST");
    const shown = okJson(s.spex(["session", "show", claude.session_id, "--json"]));
    expect(shown.usage).toMatchObject({ input: 200, output: 40, cacheRead: 60, cacheWrite: 80, total: 380, models: ["claude-opus-4-8"], unpriced: [] });
    expect(s.spex(["session", "show", claude.session_id]).stdout).toContain("usage    380 tokens (input 200, output 40, cache read 60, cache write 80), <$0.01");
    const ls = s.spex(["session", "ls"]).stdout;
    expect(ls.split("\n")[0]).toMatch(/^ID\s+STATUS\s+AGE\s+COST\s+LABEL/);
    expect(ls).toMatch(new RegExp(`${claude.session_id.slice(0, 8)}\\s+\\S+\\s+\\S+\\s+<\\$0\\.01\\s+claude work`));
    const row = okJson(s.spex(["session", "ls", claude.session_id, "--json"]))[0];
    expect(row.usage.total).toBe(380);

    appendFileSync(claudeFile, JSON.stringify({ type: "assistant", timestamp: "2026-12-01T23:00:00.000Z", message: { id: "m2", model: "local-llama", usage: { input_tokens: 5, output_tokens: 5 } } }) + "\n");
    const mixed = okJson(s.spex(["session", "show", claude.session_id, "--json"])).usage;
    expect(mixed.unpriced).toEqual(["local-llama"]);
    expect(mixed.costUsd).toBeCloseTo((200 * 5 + 40 * 25 + 60 * 0.5 + 80 * 6.25) / 1e6, 9);

    // A price from spexcode.json: the override is used.
    writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ prices: { "local-llama": { input: 1000000, output: 0 } } }));
    expect(okJson(s.spex(["session", "show", claude.session_id, "--json"])).usage.costUsd).toBeCloseTo(5 + (200 * 5 + 40 * 25 + 60 * 0.5 + 80 * 6.25) / 1e6, 6);
  });

  test("a Claude Code subagent's transcript beside the conversation counts toward the session", () => {
    sb = sandbox();
    const s = sb;
    const { claude, claudeFile } = place(s);
    const sub = join(claudeFile.replace(/\.jsonl$/, ""), "subagents", "agent-a1b2.jsonl");
    mkdirSync(join(sub, ".."), { recursive: true });
    writeFileSync(sub, JSON.stringify({ type: "assistant", isSidechain: true, timestamp: "2026-12-01T22:30:00.000Z", message: { id: "msg_sub", model: "claude-haiku-4-5", usage: { input_tokens: 11, output_tokens: 4 } } }) + "\n");
    // The conversation's own transcript grows with the subagent's turn (its tool call).
    appendFileSync(claudeFile, JSON.stringify({ type: "user", timestamp: "2026-12-01T22:30:01.000Z", message: { role: "user", content: "tool result" } }) + "\n");
    const usage = okJson(s.spex(["session", "show", claude.session_id, "--json"])).usage;
    expect(usage).toMatchObject({ input: 211, output: 44, models: ["claude-haiku-4-5", "claude-opus-4-8"] });
  });
});

