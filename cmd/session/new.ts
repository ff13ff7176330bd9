import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, printableLine, reportWarning, writeJson } from "../../lib/cli/output";
import { textFrom } from "../../lib/cli/input";
import { currentProject, isSessionId } from "../../lib/store";
import { newSession } from "../../lib/verbs/new";
import { labelOf, shortId } from "../../lib/naming";
import { SpexError } from "../../lib/errors";
import { refuseInsideSandbox } from "../../lib/workspace/sandbox";
import { launchSpinner } from "../../lib/cli/launch-wait";

/** `--sandbox` alone is on; `=no-network` and `=off` as written; anything else is a usage error. */
function sandboxOption(v: string | boolean | undefined): "on" | "no-network" | "off" | undefined {
  if (v === undefined || v === false) return undefined;
  if (v === true || v === "on") return "on";
  if (v === "no-network" || v === "off") return v;
  throw new SpexError("usage", `--sandbox=${v} is not a sandbox: use --sandbox, --sandbox=no-network or --sandbox=off`, { exitCode: 2 });
}

export class SessionNewCommand extends RemotableCommand {
  static paths = [["session", "new"], ["session", "create"]];
  static remote: RemoteSpec = { files: ["--prompt-file"] };
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "start an agent session in its own worktree, branch and tmux session",
    details: `
      Resolves the base, the launcher and every name before touching git; a bad base fails with \`base_unresolvable\` and leaves nothing behind. Unless \`--base\` pins it (stored on the record as the resolved commit), the session forks from the source-of-truth branch as it is now: \`mainBranch\` from spexcode.json (\`config_invalid\` when that branch does not exist), else the branch origin/HEAD names, else \`main\`, else \`master\`; only a repository with none of those forks from the branch its main checkout has out.

      The first \`[[topic]]\` mention in the prompt becomes the session's node and names its branch; otherwise the prompt's own words do (mentions and UUIDs are left out).

      Launch queue: once \`sessions.maxActive\` agents run in this project, the session is made (worktree, branch, record) and left \`queued\`; it launches, oldest first, as soon as a slot frees (stop, archive --stop, close, the agent exiting; with \`sessions.idleFreesSlot\`, an agent coming to rest) in whichever spex process freed it, or at the next \`ls\`. \`--no-queue\` refuses instead (\`max_active_reached\`).

      Placement: \`--group\` files the session in a group and starts the agent in the group's effective directory inside the worktree; a session created by an agent (SPEX_SESSION_ID set, or \`--parent\`) without \`--group\` lands in its creator's group. \`--directory\` names the starting folder (relative to the worktree) explicitly; a path that leaves the worktree, or a symbolic link on the way to it, is \`unsafe_path\`.

      \`--model\` (claude, codex, gemini) and \`--effort\` (claude: low, medium, high, xhigh, max; codex: none, minimal, low, medium, high, xhigh) are handed to the agent CLI as its own flags, on this launch and every resume; a harness without the option refuses (\`usage\`).

      Budgets: \`--budget-usd N\` and/or \`--budget-tokens N\` limit what the session may spend, as its agent's transcript counts it (\`spex usage\`); without them its group's or the project's default applies (\`budgets\` in spexcode.json). At 80 % a \`budget\` notification goes out; at 100 % the session is parked with note \`budget_exceeded\` when it comes to rest, or at its next tool call with \`--hard\` (its turn interrupted). \`--budget-scope tree\` counts its children toward it. \`spex session resume SEL --budget-usd N\` raises it. docs/attention.md.

      On a terminal, a start that takes more than a moment shows on stderr what it waits for (the agent's start hook, a shell's first prompt, the agent's process) and for how long at most (\`SPEX_READY_TIMEOUT_MS\`, 30 s); piped or with \`--json\`, nothing is drawn.

      Workspace (docs/workspace.md): the main checkout's spexcode.json may give each new worktree a setup run before the agent starts (\`setup_failed\` keeps the session; resume runs it again), ignored files copied from the main checkout (\`include\`, \`.worktreeinclude\`) and a block of ports (\`SPEX_PORT\`, \`SPEX_PORTS\`). \`--sandbox\` runs the agent under bubblewrap (Linux): only its worktree, the git folder and its own config writable, a private /tmp; \`--sandbox=no-network\` takes the network away too; \`--sandbox=off\` overrides a launcher's \`"sandbox": true\`.

      A prompt that starts with \`-\` needs \`--\` before it on the command line (or use \`--prompt-file\`); it reaches the agent with one leading space.
    `,
    examples: [
      ["Start Claude Code on a task", 'spex session new "fix the [[auth]] token refresh bug"'],
      ["Pin the fork point and name it", 'spex session new --base v1.4.0 --name bisect "find where parsing broke"'],
      ["Any shell command, prompt from stdin, no launch", "cat task.md | spex session new --launcher shell --prompt-file - --no-launch"],
      ["Filed in a group made with spex group new (starts in its directory)", 'spex session new --group fleet/api "add rate limiting"'],
      ["A model and effort for Claude Code, starting in services/api", 'spex session new --model opus --effort high --directory services/api "tighten the retry logic"'],
      ["Refuse rather than queue when the fleet is full", 'spex session new --no-queue --json "quick fix"'],
      ["In a sandbox without network (bubblewrap: only its worktree and git folder writable)", 'spex session new --sandbox=no-network "refactor the parser"'],
      ["At most two dollars, stopped mid-turn when spent", 'spex session new --budget-usd 2 --hard "refactor the parser"'],
    ],
  });

  prompt = Option.String({ name: "prompt", required: false });
  promptFile = Option.String("--prompt-file", { description: "Read the prompt from a file, or - for stdin" });
  launcher = Option.String("--launcher", { description: "A launcher name from spexcode.json, or a harness: claude, codex, gemini, shell" });
  name = Option.String("--name", { description: "A display name" });
  base = Option.String("--base", { description: "A commit-ish to fork from (default: the main branch now)" });
  parent = Option.String("--parent", { description: "The parent session (it watches this one)" });
  group = Option.String("--group", { description: "File the new session in this group (it must exist) and start it in the group's directory" });
  directory = Option.String("--directory", { description: "The folder the agent starts in, relative to the worktree" });
  model = Option.String("--model", { description: "The model the agent runs (claude, codex, gemini), kept by resume" });
  effort = Option.String("--effort", { description: "The reasoning effort (claude, codex), kept by resume" });
  sandbox = Option.String("--sandbox", { tolerateBoolean: true, description: "Run the agent in a sandbox (bubblewrap, Linux): --sandbox, --sandbox=no-network, --sandbox=off (docs/workspace.md)" });
  budgetUsd = Option.String("--budget-usd", { description: "Park the session once it has spent this many dollars", validator: t.isNumber() });
  budgetTokens = Option.String("--budget-tokens", { description: "Park the session once it has used this many tokens", validator: t.cascade(t.isNumber(), [t.isInteger()]) });
  hard = Option.Boolean("--hard", { description: "With a budget: interrupt the turn at once when it is spent, not at rest" });
  budgetScope = Option.String("--budget-scope", { description: "session (default) or tree: the children's usage counts too", validator: t.isEnum(["session", "tree"] as const) });
  noLaunch = Option.Boolean("--no-launch", false, { description: "Make the worktree and record, start nothing" });
  noQueue = Option.Boolean("--no-queue", false, { description: "Past sessions.maxActive, refuse (max_active_reached) instead of queueing" });
  api = Option.String("--api", { description: "Create through the backend at this URL (skips the project check)" });
  port = Option.String("--port", { description: "Create through the backend on this loopback port", validator: t.cascade(t.isNumber(), [t.isInteger()]) });

  async execute(): Promise<number> {
    // `--sandbox off` reads as the bare flag and the prompt "off": a sandbox nobody asked for, running "off".
    if (this.sandbox === true && this.prompt !== undefined && ["on", "off", "no-network"].includes(this.prompt)) {
      throw new SpexError("usage", `--sandbox takes its value after "=": --sandbox ${this.prompt} reads as --sandbox and the prompt ${JSON.stringify(this.prompt)}`, {
        hint: `write --sandbox=${this.prompt} and the prompt after it; see \`spex session new --help\``,
        exitCode: 2,
      });
    }
    const prompt = await textFrom(this.prompt, this.promptFile, this.context.stdin, "prompt");
    if (prompt === undefined) throw new SpexError("usage", "a prompt is required", { hint: 'spex session new "what to do", or --prompt-file F', exitCode: 2 });
    const caller = process.env.SPEX_SESSION_ID;
    // From inside a sandbox, before any route (a backend would make the worktree where the sandbox may not write).
    refuseInsideSandbox();
    // A slow agent start is shown on a terminal as it happens, never left as a silent wait.
    const { spinner, onWaiting } = launchSpinner(this.context.stderr, this.json, "making the session's worktree and branch");
    const { result, json } = await newSession(currentProject(), {
      target: { api: this.api, port: this.port },
      prompt,
      launcher: this.launcher,
      name: this.name,
      base: this.base,
      parent: this.parent,
      noLaunch: this.noLaunch,
      noQueue: this.noQueue,
      group: this.group,
      directory: this.directory,
      model: this.model,
      effort: this.effort,
      sandbox: sandboxOption(this.sandbox),
      budget: this.budgetUsd !== undefined || this.budgetTokens !== undefined || this.hard !== undefined || this.budgetScope !== undefined ? { usd: this.budgetUsd, tokens: this.budgetTokens, hard: this.hard, scope: this.budgetScope } : undefined,
      // The calling agent (its own session): a child it creates lands in its group.
      creator: caller && isSessionId(caller) ? caller : undefined,
      onWaiting,
    }).finally(() => spinner.stop());
    for (const warning of result.stuck ?? []) reportWarning(warning, this.context.stderr);
    // Ignored files the project asked for that were left out (lib/workspace): said, not fatal.
    for (const s of result.included?.skipped ?? []) this.context.stderr.write(printable(`spex: not copied into the worktree: ${s.path} (${s.reason})\n`));
    if (this.json) {
      writeJson(this.context.stdout, json);
      return 0;
    }
    const r = result.record;
    const id8 = shortId(r.session_id, 8);
    const state = this.noLaunch
      ? "not launched"
      : result.queuePosition !== null
        ? `queued, position ${result.queuePosition}: it launches when a slot frees`
        : result.ready
          ? "running"
          : "starting";
    // The name is anyone's text (a script's, an agent's): an escape in it shows, never acts on the terminal.
    const line = (text: string) => `${printableLine(text)}\n`;
    this.context.stdout.write(
      line(`created ${id8} "${labelOf(r)}" (${state})`) +
        line(`  branch   ${r.branch}`) +
        line(`  worktree ${r.worktree_path}`) +
        (result.included?.copied.length ? line(`  included ${result.included.copied.map((c) => c.path).join(", ")}`) : "") +
        (this.noLaunch ? `  launch   spex session resume ${id8}\n` : `  attach   spex session attach ${id8}\n`),
    );
    return 0;
  }
}
