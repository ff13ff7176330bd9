// The real agent CLIs from npm, each in its own tmux server, against a fake
// model API on loopback: a prompt delivered the way spex delivers it (one
// bracketed paste, then Enter) reaches the API as one user message, the answer
// appears on screen, and the hooks configured in the worktree fire with the
// payload fields spex relies on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic, startFakeGemini, startFakeOpenAI, userPrompts, openaiUserPrompts, geminiUserPrompts, type FakeAnthropic, type FakeGemini, type FakeOpenAI } from "../support/fake-apis";
import { AgentPane, prepareClaude, prepareCodex, prepareGemini, realCliBinary, shQuote, until, type RealCli } from "../support/real-agents";
import { cleanEnv, makeRepo } from "../support/sandbox";

const TIMEOUT = 60_000;
const TWO_LINES = "first line of the prompt\nsecond line of the prompt";

for (const cli of ["claude", "codex", "gemini"] as RealCli[])
  if (!realCliBinary(cli)) console.warn(`skipping the ${cli} offline e2e tests: e2e-agents/node_modules/.bin/${cli} is missing (make test-agents installs it)`);

interface World {
  dir: string;
  repo: string;
  home: string;
  hookLog: string;
  socket: string;
}

function world(cli: RealCli): World {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `spex-e2e-${cli}-`)));
  const repo = makeRepo(join(dir, "repo"), cleanEnv());
  const home = join(dir, "home");
  mkdirSync(home);
  return { dir, repo, home, hookLog: join(dir, "hooks.jsonl"), socket: `spex-e2e-${cli}-${process.pid}` };
}

function dispose(w: World, pane?: AgentPane): void {
  pane?.killServer();
  rmSync(w.dir, { recursive: true, force: true });
}

/** Hooks that append their stdin (one JSON line per event) to the log. */
function hookSettings(w: World, events: string[], timeout?: number): { hooks: Record<string, unknown[]> } {
  // Codex and Gemini send the payload without a trailing newline.
  const command = `{ cat; echo; } >> ${shQuote(w.hookLog)}`;
  const handler = timeout === undefined ? { type: "command", command } : { type: "command", command, timeout };
  return { hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [handler] }]])) };
}

function hookPayloads(w: World): Record<string, unknown>[] {
  if (!existsSync(w.hookLog)) return [];
  return readFileSync(w.hookLog, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function payload(w: World, event: string, where: (p: Record<string, unknown>) => boolean = () => true): Record<string, unknown> | undefined {
  return hookPayloads(w).find((p) => p.hook_event_name === event && where(p));
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

describe.skipIf(!realCliBinary("claude"))("claude code offline", () => {
  const sessionId = "5e55e55e-e2e0-4000-8000-000000000001";
  let w: World;
  let fake: FakeAnthropic;
  let pane: AgentPane;
  let env: Record<string, string>;

  beforeAll(async () => {
    w = world("claude");
    fake = await startFakeAnthropic({ replyText: "Hello from the fake model." });
    // A parent folder's trust covers the checkout below it (as it covers worktrees).
    env = prepareClaude({ home: w.home, apiUrl: fake.url, trust: [w.dir] });
    writeJson(join(w.repo, ".claude", "settings.local.json"), hookSettings(w, ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "Stop", "SessionEnd"]));
    pane = AgentPane.start({ socket: w.socket, name: "claude", cwd: w.repo, env, argv: [realCliBinary("claude")!, "--session-id", sessionId], scriptDir: w.dir, cli: "claude" });
  });
  afterAll(async () => {
    dispose(w, pane);
    await fake.close();
  });

  test("starts on the composer with no dialog and reports SessionStart with the given session id", async () => {
    await pane.waitForScreen(/\? for shortcuts/, "the composer");
    const start = await until(() => payload(w, "SessionStart"), "SessionStart");
    expect(start).toMatchObject({ session_id: sessionId, cwd: w.repo, source: "startup" });
  }, TIMEOUT);

  test("a two-line bracketed paste then Enter is one user message, answered on screen", async () => {
    await pane.submit(TWO_LINES);
    await pane.waitForScreen(/Hello from the fake model\.[\s\S]*\? for shortcuts/, "the answer");
    const turns = fake.turns();
    const prompts = userPrompts(turns[turns.length - 1]!);
    expect(prompts.filter((p) => p.includes("first line of the prompt"))).toEqual([TWO_LINES]);
    expect(payload(w, "UserPromptSubmit")).toMatchObject({ session_id: sessionId, prompt: TWO_LINES });
    await until(() => payload(w, "Stop"), "Stop");
  }, TIMEOUT);

  test("a Bash tool call shows the permission dialog and fires PreToolUse and PermissionRequest", async () => {
    fake.options.toolUse = { name: "Bash", input: { command: "touch e2e-probe", description: "Create a probe file" } };
    await pane.submit("create the probe");
    await pane.waitForScreen(/Do you want to proceed\?/, "the permission dialog");
    const req = await until(() => payload(w, "PermissionRequest"), "PermissionRequest");
    expect(req).toMatchObject({ session_id: sessionId, tool_name: "Bash", tool_input: { command: "touch e2e-probe" } });
    expect(payload(w, "PreToolUse", (p) => p.tool_name === "Bash")).toBeDefined();
    pane.keys("Escape");
    await pane.waitForScreen(/Interrupted/, "the interrupted tool call");
  }, TIMEOUT);

  test("after /exit (SessionEnd), --resume reopens the conversation with the earlier turn on screen", async () => {
    pane.type("/exit");
    await pane.waitForScreen(/Exit the CLI/, "the /exit command");
    pane.keys("Enter");
    expect(await until(() => payload(w, "SessionEnd"), "SessionEnd")).toMatchObject({ session_id: sessionId, reason: "prompt_input_exit" });
    pane.killServer();
    // A new tmux server: the old one may still be shutting down once its last pane is gone.
    pane = AgentPane.start({ socket: `${w.socket}-resumed`, name: "claude-resumed", cwd: w.repo, env, argv: [realCliBinary("claude")!, "--resume", sessionId], scriptDir: w.dir, cli: "claude" });
    await pane.waitForScreen(/second line of the prompt[\s\S]*\? for shortcuts/, "the earlier turn");
    expect(await until(() => payload(w, "SessionStart", (p) => p.source === "resume"), "SessionStart on resume")).toMatchObject({ session_id: sessionId });
  }, TIMEOUT);
});

describe.skipIf(!realCliBinary("codex"))("codex offline", () => {
  let w: World;
  let fake: FakeOpenAI;
  let pane: AgentPane;

  beforeAll(async () => {
    w = world("codex");
    fake = await startFakeOpenAI({ replyText: "Hello from the fake model." });
    const hooksFile = join(w.repo, ".codex", "hooks.json");
    writeJson(hooksFile, hookSettings(w, ["SessionStart", "UserPromptSubmit", "Stop"], 600));
    const env = prepareCodex({ home: w.home, apiUrl: fake.url, trust: [w.repo], hooksFiles: [hooksFile] });
    pane = AgentPane.start({ socket: w.socket, name: "codex", cwd: w.repo, env, argv: [realCliBinary("codex")!], scriptDir: w.dir, cli: "codex" });
  });
  afterAll(async () => {
    dispose(w, pane);
    await fake.close();
  });

  test("a pasted prompt reaches the Responses API as one message, is answered on screen, and the pre-trusted hooks fire", async () => {
    await pane.waitForScreen(/Ask Codex to do anything/, "the composer");
    await pane.submit(TWO_LINES);
    await pane.waitForScreen(/Hello from the fake model\.[\s\S]*Worked for/, "the answer");
    const turns = fake.turns();
    expect(openaiUserPrompts(turns[turns.length - 1]!)).toEqual([TWO_LINES]);
    const submit = await until(() => payload(w, "UserPromptSubmit"), "UserPromptSubmit");
    expect(submit).toMatchObject({ prompt: TWO_LINES, cwd: w.repo });
    expect(payload(w, "SessionStart")).toMatchObject({ session_id: submit.session_id, source: "startup" });
    await until(() => payload(w, "Stop"), "Stop");
    expect(pane.screen()).not.toMatch(/Hooks need review/);
  }, TIMEOUT);
});

describe.skipIf(!realCliBinary("gemini"))("gemini offline", () => {
  let w: World;
  let fake: FakeGemini;
  let pane: AgentPane;

  beforeAll(async () => {
    w = world("gemini");
    fake = await startFakeGemini({ replyText: "Hello from the fake model." });
    writeJson(join(w.repo, ".gemini", "settings.json"), hookSettings(w, ["SessionStart", "BeforeAgent", "AfterAgent"]));
    const env = prepareGemini({ home: w.home, apiUrl: fake.url, trust: [w.repo] });
    pane = AgentPane.start({ socket: w.socket, name: "gemini", cwd: w.repo, env, argv: [realCliBinary("gemini")!], scriptDir: w.dir, cli: "gemini" });
  });
  afterAll(async () => {
    dispose(w, pane);
    await fake.close();
  });

  test("a pasted prompt reaches streamGenerateContent as one message, is answered on screen, and the hooks fire", async () => {
    await pane.waitForScreen(/Gemini CLI v[\s\S]*Type your message/, "the composer");
    await pane.submit(TWO_LINES);
    await pane.waitForScreen(/✦ Hello from the fake model\./, "the answer");
    const turns = fake.turns();
    expect(geminiUserPrompts(turns[turns.length - 1]!)).toEqual([TWO_LINES]);
    const before = await until(() => payload(w, "BeforeAgent"), "BeforeAgent");
    expect(before).toMatchObject({ prompt: TWO_LINES, cwd: w.repo });
    expect(payload(w, "SessionStart")).toMatchObject({ session_id: before.session_id, source: "startup" });
    expect(await until(() => payload(w, "AfterAgent"), "AfterAgent")).toMatchObject({ prompt_response: "Hello from the fake model." });
  }, TIMEOUT);
});
