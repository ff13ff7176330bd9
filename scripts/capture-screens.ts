// Re-capture the real agent CLIs' screens into test/fixtures/screens/: each CLI
// runs in an isolated tmux server against a fake model API on loopback, is
// driven into a known state, and its pane is saved as plain text together with
// the status a classifier should give it (fixtures.json).
//
//   node_modules/.bin/bun scripts/capture-screens.ts [claude] [codex] [gemini]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gate, startFakeAnthropic, startFakeGemini, startFakeOpenAI } from "../test/support/fake-apis";
import {
  AgentPane,
  FAKE_ANTHROPIC_KEY,
  prepareClaude,
  prepareCodex,
  prepareGemini,
  realCliBinary,
  realCliVersion,
  type RealCli,
  until,
} from "../test/support/real-agents";

type Status = "active" | "idle" | "needs_attention";
interface Fixture {
  file: string;
  harness: RealCli;
  version: string;
  shows: string;
  status: Status;
}

const ROOT = resolve(__dirname, "..");
const OUT = join(ROOT, "test", "fixtures", "screens");
const INDEX = join(OUT, "fixtures.json");
// Fixed folders so the paths printed on screen stay the same between captures.
const WORK = "/tmp/spex-screens";
const SOCKET = `spex-screens-${process.pid}`;

const captured: Fixture[] = [];

function save(cli: RealCli, slug: string, screen: string, shows: string, status: Status): void {
  const version = realCliVersion(cli);
  const file = `${cli}-${version}-${slug}.txt`;
  writeFileSync(join(OUT, file), screen);
  captured.push({ file, harness: cli, version, shows, status });
  console.log(`  ${file} (${status})`);
}

function freshRepo(cli: RealCli): { repo: string; base: string } {
  const base = join(WORK, cli);
  rmSync(base, { recursive: true, force: true });
  const repo = join(base, "repo");
  mkdirSync(repo, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "spex", GIT_AUTHOR_EMAIL: "spex@example.invalid", GIT_COMMITTER_NAME: "spex", GIT_COMMITTER_EMAIL: "spex@example.invalid" };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env });
  writeFileSync(join(repo, "README.md"), "# demo\n");
  execFileSync("git", ["add", "README.md"], { cwd: repo, env });
  execFileSync("git", ["commit", "-q", "-m", "initial"], { cwd: repo, env });
  return { repo, base };
}

let paneCounter = 0;
let anyPane: AgentPane | undefined;
function start(cli: RealCli, cwd: string, env: Record<string, string>, args: string[], base: string, keepOnExit = false): AgentPane {
  // One CLI at a time (2 cores are shared); the old one is stopped after the
  // new one starts so the tmux server never runs out of sessions meanwhile.
  const previous = anyPane;
  anyPane = AgentPane.start({ socket: SOCKET, name: `${cli}${++paneCounter}`, cwd, env, argv: [realCliBinary(cli)!, ...args], scriptDir: base, keepOnExit, cli });
  previous?.stop();
  return anyPane;
}

function freshHome(base: string, name: string): string {
  const home = join(base, name);
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  return home;
}

async function captureClaude(): Promise<void> {
  const { repo, base } = freshRepo("claude");
  const fake = await startFakeAnthropic({ replyText: "Hello from the fake model." });
  try {
    // Without onboarding done, Claude Code checks api.anthropic.com directly and gives up offline.
    const bare = freshHome(base, "home-bare");
    const offlineEnv = prepareClaude({ home: bare, apiUrl: fake.url, trust: [] });
    rmSync(join(bare, ".claude.json"));
    let p = start("claude", repo, offlineEnv, [], base, true);
    save("claude", "first-run-offline", await p.waitForScreen(/Unable to connect/, "the offline first-run failure"), "first run without hasCompletedOnboarding: the CLI cannot reach api.anthropic.com and exits 1", "needs_attention");

    // Onboarding done but the folder not trusted: the trust dialog, then the API key question.
    const untrusted = freshHome(base, "home-untrusted");
    const untrustedEnv = prepareClaude({ home: untrusted, apiUrl: fake.url, trust: [] });
    writeFileSync(join(untrusted, ".claude.json"), JSON.stringify({ hasCompletedOnboarding: true }));
    p = start("claude", repo, untrustedEnv, [], base);
    save("claude", "trust-dialog", await p.waitForScreen(/Yes, I trust this folder/, "the trust dialog"), "folder trust dialog of an untrusted folder", "needs_attention");
    p.keys("Enter");
    save("claude", "api-key-dialog", await p.waitForScreen(/Do you want to use this API key\?/, "the API key question"), `"Detected a custom API key" question (key ${FAKE_ANTHROPIC_KEY.slice(0, 7)}… not approved)`, "needs_attention");

    // Fully prepared: the composer, a held turn, the answer, a permission dialog.
    const home = freshHome(base, "home");
    const env = prepareClaude({ home, apiUrl: fake.url, trust: [base] });
    const sessionId = "5e55e55e-0000-4000-8000-000000000001";
    p = start("claude", repo, env, ["--session-id", sessionId], base);
    save("claude", "composer-idle", await p.waitForScreen(/\? for shortcuts/, "the composer"), "welcome banner and an empty composer after start", "idle");

    const held = gate();
    fake.options.hold = { until: held.promise };
    fake.options.replyText = "Slow answer arrived.";
    await p.submit("take your time");
    save("claude", "turn-in-progress", await p.waitForScreen(/esc to interrupt/, "the working indicator"), "a turn in progress: spinner line with a verb and “esc to interrupt” in the footer", "active");
    await p.submit("and one more thing");
    save("claude", "turn-in-progress-queued", await p.waitForScreen(/and one more thing[\s\S]*esc to interrupt/, "a queued message"), "a turn in progress with a second message queued below it", "active");
    held.open();
    fake.options.hold = undefined;
    save("claude", "answer-shown", await p.waitForScreen(/Slow answer arrived\.[\s\S]*\? for shortcuts/, "the answer"), "answers shown, composer empty; old “✻ Cooked for Ns” lines stay above", "idle");

    fake.options.replyText = "Hello from the fake model.";
    fake.options.toolUse = { name: "Bash", input: { command: "touch spex-probe.txt", description: "Create a probe file" } };
    await p.submit("create the probe file");
    save("claude", "permission-dialog", await p.waitForScreen(/Do you want to proceed\?/, "the permission dialog"), "Bash permission dialog below a “Waiting…” tool line", "needs_attention");
    p.keys("Escape");
    save("claude", "interrupted", await p.waitForScreen(/Interrupted/, "the interrupted turn"), "permission dialog dismissed with Esc: “Interrupted · What should Claude do instead?” (no Stop hook fires)", "idle");

    p.paste(Array.from({ length: 12 }, (_, i) => `pasted line ${i + 1}`).join("\n"));
    save("claude", "paste-pending", await p.waitForScreen(/\[Pasted text #\d+ \+\d+ lines\]/, "the collapsed paste"), "a bracketed paste waiting in the composer as “[Pasted text #1 +11 lines]”, not yet submitted", "idle");
    p.keys("Enter");
    await p.waitForScreen(/pasted line 12[\s\S]*Hello from the fake model\.[\s\S]*\? for shortcuts/, "the pasted prompt's answer");
    p.type("/exit");
    await p.waitForScreen(/Exit the CLI/, "the /exit command");
    p.keys("Enter");
    await until(() => !paneAlive(p), "claude to exit");

    p = start("claude", repo, env, ["--resume", sessionId], base);
    save("claude", "resumed", await p.waitForScreen(/take your time[\s\S]*\? for shortcuts/, "the resumed conversation"), "--resume <id>: the earlier turns are shown above an empty composer", "idle");
  } finally {
    await fake.close();
  }
}

function paneAlive(p: AgentPane): boolean {
  try {
    return !p.dead();
  } catch {
    return false;
  }
}

async function captureCodex(): Promise<void> {
  const { repo, base } = freshRepo("codex");
  const fake = await startFakeOpenAI();
  try {
    let env = prepareCodex({ home: freshHome(base, "home-untrusted"), apiUrl: fake.url, trust: [] });
    let p = start("codex", repo, env, [], base);
    save("codex", "trust-dialog", await p.waitForScreen(/Trust this folder\?/, "the trust dialog"), "folder trust dialog (“Trust and continue”)", "needs_attention");

    // A project hook nobody approved: Codex asks before the session starts.
    const hooksFile = join(repo, ".codex", "hooks.json");
    mkdirSync(join(repo, ".codex"), { recursive: true });
    writeFileSync(hooksFile, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timeout: 600 }] }] } }, null, 2));
    env = prepareCodex({ home: freshHome(base, "home-hooks"), apiUrl: fake.url, trust: [repo] });
    p = start("codex", repo, env, [], base);
    save("codex", "hooks-review", await p.waitForScreen(/Hooks need review/, "the hooks review dialog"), "“Hooks need review” dialog for a hooks.json handler without a trusted_hash", "needs_attention");

    env = prepareCodex({ home: freshHome(base, "home"), apiUrl: fake.url, trust: [repo], hooksFiles: [hooksFile] });
    p = start("codex", repo, env, [], base);
    save("codex", "composer-idle", await p.waitForScreen(/Ask Codex to do anything/, "the composer"), "banner and the empty composer placeholder", "idle");

    const held = gate();
    fake.options.hold = { until: held.promise };
    await p.submit("take your time");
    save("codex", "turn-in-progress", await p.waitForScreen(/esc to interrupt/, "the working indicator"), "“• Working (Ns • esc to interrupt)”", "active");
    held.open();
    fake.options.hold = undefined;
    save("codex", "answer-shown", await p.waitForScreen(/Hello from the fake model\.[\s\S]*Worked for/, "the answer"), "the answer and “Worked for …”, composer empty", "idle");

    fake.options.queue = [{ functionCall: { name: "exec_command", arguments: { cmd: "touch /spex-probe-never", sandbox_permissions: "require_escalated", justification: "Create the probe file?" } } }];
    await p.submit("create the probe file");
    save("codex", "approval-dialog", await p.waitForScreen(/Would you like to run the following command\?/, "the approval dialog"), "command approval dialog (escalated exec_command)", "needs_attention");
    p.keys("Escape");
    save("codex", "interrupted", await p.waitForScreen(/Conversation interrupted/, "the interrupted turn"), "approval cancelled with Esc: “■ Conversation interrupted” (no Stop hook fires)", "idle");
  } finally {
    await fake.close();
  }
}

async function captureGemini(): Promise<void> {
  const { repo, base } = freshRepo("gemini");
  const fake = await startFakeGemini();
  try {
    let env = prepareGemini({ home: freshHome(base, "home-untrusted"), apiUrl: fake.url, trust: [] });
    let p = start("gemini", repo, env, [], base);
    save("gemini", "trust-dialog", await p.waitForScreen(/Do you trust (the files in )?this folder\?/i, "the trust dialog"), "folder trust dialog", "needs_attention");

    // No settings.json: the first-run sign-in choice, even with GEMINI_API_KEY set.
    const bare = freshHome(base, "home-bare");
    env = prepareGemini({ home: bare, apiUrl: fake.url, trust: [repo] });
    rmSync(join(bare, ".gemini", "settings.json"));
    p = start("gemini", repo, env, [], base);
    save("gemini", "first-run-auth", await p.waitForScreen(/How would you like to authenticate/, "the sign-in choice"), "first-run “Get started” authentication choice (no selectedType in settings)", "needs_attention");

    env = prepareGemini({ home: freshHome(base, "home"), apiUrl: fake.url, trust: [repo] });
    p = start("gemini", repo, env, [], base);
    save("gemini", "composer-idle", await p.waitForScreen(/Gemini CLI v[\s\S]*Type your message/, "the composer"), "banner and the empty composer placeholder", "idle");

    const held = gate();
    fake.options.hold = { until: held.promise };
    await p.submit("take your time");
    save("gemini", "turn-in-progress", await p.waitForScreen(/esc to cancel/, "the working indicator"), "spinner line “Thinking... (esc to cancel, Ns)”", "active");
    held.open();
    fake.options.hold = undefined;
    save("gemini", "answer-shown", await p.waitForScreen(/✦ Hello from the fake model\.[\s\S]*Type your message/, "the answer"), "the answer (✦) and the empty composer", "idle");

    fake.options.queue = [{ functionCall: { name: "run_shell_command", args: { command: "touch spex-probe.txt", description: "Create a probe file" } } }];
    await p.submit("create the probe file");
    save("gemini", "approval-dialog", await p.waitForScreen(/Allow execution of/, "the approval dialog"), "shell tool confirmation “Allow execution of [Shell]?”", "needs_attention");
  } finally {
    await fake.close();
  }
}

async function main(): Promise<void> {
  const wanted = (process.argv.slice(2).length ? process.argv.slice(2) : ["claude", "codex", "gemini"]) as RealCli[];
  mkdirSync(OUT, { recursive: true });
  const runs: Record<RealCli, () => Promise<void>> = { claude: captureClaude, codex: captureCodex, gemini: captureGemini };
  try {
    for (const cli of wanted) {
      if (!realCliBinary(cli)) throw new Error(`${cli} is not installed (make test-agents)`);
      console.log(`${cli} ${realCliVersion(cli)}`);
      await runs[cli]();
    }
  } finally {
    killServer();
  }
  const previous: Fixture[] = existsSync(INDEX) ? JSON.parse(readFileSync(INDEX, "utf8")) : [];
  const kept = previous.filter((f) => !captured.some((c) => c.file === f.file));
  const all = [...kept, ...captured].sort((a, b) => a.file.localeCompare(b.file));
  writeFileSync(INDEX, JSON.stringify(all, null, 2) + "\n");
}

function killServer(): void {
  // Through a pane: it also stops CLIs that ignore the server's SIGHUP.
  if (anyPane) return anyPane.killServer();
  try {
    execFileSync("tmux", ["-L", SOCKET, "kill-server"], { stdio: "ignore" });
  } catch {
    /* no server left */
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
