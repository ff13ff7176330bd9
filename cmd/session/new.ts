import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { reportWarning, writeJson } from "../../lib/cli/output";
import { textFrom } from "../../lib/cli/input";
import { currentProject } from "../../lib/store";
import { createWithAuthority } from "../../lib/backend";
import { labelOf, shortId } from "../../lib/naming";
import { SpexError } from "../../lib/errors";
import { fileSessions, requireGroup } from "../../lib/coord";

export class SessionNewCommand extends SpexCommand {
  static paths = [["session", "new"], ["session", "create"]];
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "start an agent session in its own worktree, branch and tmux session",
    details: `
      Resolves the base, the launcher and every name before touching git; a bad base fails with \`base_unresolvable\` and leaves nothing behind. The session forks from the main branch as it is now, or from \`--base\` (stored on the record as the resolved commit).

      The first \`[[topic]]\` mention in the prompt becomes the session's node and names its branch; otherwise the prompt's own words do (mentions and UUIDs are left out).

      A prompt that starts with \`-\` needs \`--\` before it on the command line (or use \`--prompt-file\`); it reaches the agent with one leading space.
    `,
    examples: [
      ["Start Claude Code on a task", 'spex session new "fix the [[auth]] token refresh bug"'],
      ["Pin the fork point and name it", 'spex session new --base v1.4.0 --name bisect "find where parsing broke"'],
      ["Any shell command, prompt from stdin, no launch", "cat task.md | spex session new --launcher shell --prompt-file - --no-launch"],
      ["Filed in a group made with spex group new", 'spex session new --group fleet/api "add rate limiting"'],
    ],
  });

  prompt = Option.String({ name: "prompt", required: false });
  promptFile = Option.String("--prompt-file", { description: "Read the prompt from a file, or - for stdin" });
  launcher = Option.String("--launcher", { description: "A launcher name from spexcode.json, or a harness: claude, codex, gemini, shell" });
  name = Option.String("--name", { description: "A display name" });
  base = Option.String("--base", { description: "A commit-ish to fork from (default: the main branch now)" });
  parent = Option.String("--parent", { description: "The parent session (it watches this one)" });
  group = Option.String("--group", { description: "File the new session in this group (it must exist)" });
  noLaunch = Option.Boolean("--no-launch", false, { description: "Make the worktree and record, start nothing" });
  api = Option.String("--api", { description: "Create through the backend at this URL (skips the project check)" });
  port = Option.String("--port", { description: "Create through the backend on this loopback port", validator: t.cascade(t.isNumber(), [t.isInteger()]) });

  async execute(): Promise<number> {
    const prompt = await textFrom(this.prompt, this.promptFile, this.context.stdin, "prompt");
    // A prompt of blanks alone says nothing to the agent: refused like an empty one.
    if (prompt === undefined || prompt.trim() === "") {
      throw new SpexError("usage", prompt ? "the prompt is only whitespace" : "a prompt is required", { hint: 'spex session new "what to do", or --prompt-file F', exitCode: 2 });
    }
    const store = currentProject();
    // An unknown group refuses before anything is made.
    const group = this.group === undefined ? "" : requireGroup(store, this.group);
    // A served backend of this project owns creation (DESIGN.md §5 step 2); in-process only when nothing listens.
    const result = await createWithAuthority(store, {
      target: { api: this.api, port: this.port },
      prompt,
      launcher: this.launcher,
      name: this.name,
      base: this.base,
      parent: this.parent,
      noLaunch: this.noLaunch,
    });
    for (const warning of result.stuck ?? []) reportWarning(warning, this.context.stderr);
    if (group !== "") {
      // The session exists now; a group removed in the meantime must say so rather than hide it.
      await fileSessions(store, group, [result.record.session_id]).catch((e: unknown) => {
        throw new SpexError((e as SpexError).code ?? "internal_error", `session ${shortId(result.record.session_id, 8)} was created in the root but not filed in ${group}: ${(e as Error).message}`, {
          hint: `file it with: spex group file GROUP ${shortId(result.record.session_id, 8)}`,
        });
      });
    }
    if (this.json) {
      writeJson(this.context.stdout, { ...result.record, prompt: result.prompt, ready: result.ready, group });
      return 0;
    }
    const r = result.record;
    const id8 = shortId(r.session_id, 8);
    const state = this.noLaunch ? "not launched" : result.ready ? "running" : "starting";
    this.context.stdout.write(
      `created ${id8} "${labelOf(r)}" (${state})\n  branch   ${r.branch}\n  worktree ${r.worktree_path}\n` +
        (this.noLaunch ? `  launch   spex session resume ${id8}\n` : `  attach   spex session attach ${id8}\n`),
    );
    return 0;
  }
}
