// Launch-script rendering: one template per harness, every value single-quoted,
// and the prompt handed over as one operand after the prompt seam.
import { ASSETS } from "../generated/assets";
import { promptSeam } from "../naming";
import { shellQuote } from "../tmux/quote";

export { shellQuote };

export interface LaunchScriptInput {
  harness: string;
  sessionId: string;
  /** The folder the script changes into: the worktree, or the session's start directory in it. */
  worktree: string;
  env: Record<string, string>;
  pidFile: string;
  /** The launcher command, as configured (shell words, trusted config). */
  command: string;
  args: string[];
  /** The prompt, or null for a prompt-less launch (resume). */
  prompt: string | null;
  /** Lines run just before the exec (templates that have a @@SETUP@@ line). */
  setup?: string[];
  /** The workspace's lines (lib/workspace: the setup, the sandbox), run before the agent's pid is recorded. */
  workspace?: string[];
}

export function renderLaunchScript(i: LaunchScriptInput): string {
  const template = ASSETS[`launch-templates/${i.harness}.sh`];
  const recordPid = ASSETS["launch-templates/record-pid.sh"]!;
  if (!template) throw new Error(`no launch template for harness ${i.harness}`);
  const env = Object.entries(i.env)
    .map(([k, v]) => `export ${k}=${shellQuote(v)}`)
    .join("\n");
  const fill: Record<string, string> = {
    "@@SESSION_ID@@": i.sessionId,
    "@@ENV@@": env,
    "@@WORKTREE@@": shellQuote(i.worktree),
    "@@RECORD_PID@@": recordPid.replace(/@@PIDFILE@@/g, shellQuote(i.pidFile)).trimEnd(),
    "@@COMMAND@@": i.command,
    "@@ARGS@@": i.args.map(shellQuote).join(" "),
    "@@SETUP@@": (i.setup ?? []).join("\n"),
    // The seam is applied here, once, for every harness (DESIGN.md §1.7).
    "@@PROMPT@@": i.prompt === null ? "" : shellQuote(promptSeam(i.prompt)),
  };
  // An empty field takes the space before it along; the filled values (the prompt above all) stay byte for byte.
  const fillIn = (text: string) =>
    text.replace(/( ?)(@@[A-Z_]+@@)/g, (_m, space: string, key: string) => {
      const value = fill[key] ?? key;
      return value === "" ? "" : space + value;
    });
  // The workspace's lines go where the template's own line says, never read as fields; without
  // any, that line goes whole and the script is the one it always was.
  const lines = i.workspace ?? [];
  return template
    .split("@@WORKSPACE@@\n")
    .map(fillIn)
    .join(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
}
