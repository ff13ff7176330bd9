// How a shell-harness command is started. An interactive bash, zsh or fish
// runs spex's generated rc (the user's own rc first) whose prompt hooks
// report the lifecycle, and its prompt is typed as the first command once the
// first prompt shows. Any other command keeps the prompt as its last
// argument, and a small watcher started beside it reads rest from the pane.
import { ASSETS } from "../generated/assets";
import { interactiveShellOf } from "../harness";
import { installHookFile, installHookFolder, spexPathDir } from "./self";
import { shellQuote } from "./script";

export interface ShellLaunch {
  /** Lines launch.sh runs just before it execs the command. */
  setup: string[];
  /** Arguments after the launcher command. */
  args: string[];
  /** An interactive shell proves readiness with its first prompt; a plain command with its pid. */
  readiness: "hook" | "pid";
  /** The prompt is typed as the first command rather than passed as an operand. */
  typesPrompt: boolean;
}

/** A generated rc: the template with the shell's hook functions put in. */
function rcText(template: string, hook: string): string {
  const text = ASSETS[template];
  if (!text) throw new Error(`no asset ${template}`);
  return text.replace("@@SHELL_HOOK@@", () => ASSETS[hook]!.trim());
}

/** Does this launcher type its prompt as the first command (an interactive shell)? */
export function promptIsTyped(harness: string, command: string): boolean {
  return harness === "shell" && interactiveShellOf(command) !== undefined;
}

/** `spex` on the session's PATH when it is not there already (a newcomer runs it from bin/). */
function spexOnPath(home: string, bin: string): string {
  return `command -v spex >/dev/null 2>&1 || export PATH=${shellQuote(spexPathDir(home, bin))}:"$PATH"`;
}

export function shellLaunch(command: string, home: string, bin: string): ShellLaunch {
  const launch = plan(command, home);
  return { ...launch, setup: [spexOnPath(home, bin), ...launch.setup] };
}

function plan(command: string, home: string): ShellLaunch {
  const interactive = { readiness: "hook", typesPrompt: true } as const;
  switch (interactiveShellOf(command)) {
    case "bash": {
      const rc = installHookFile(home, "spex-bashrc", rcText("launch-templates/shell-rc.bash", "hooks/shell-hook.sh"), ".bash");
      return { ...interactive, setup: [], args: ["--rcfile", rc, "-i"] };
    }
    case "zsh": {
      const dir = installHookFolder(home, "spex-zdotdir", {
        ".zshenv": ASSETS["launch-templates/shell-env.zsh"]!,
        ".zshrc": rcText("launch-templates/shell-rc.zsh", "hooks/shell-hook.sh"),
      });
      // zsh reads its startup files from ZDOTDIR: spex's, which hand over to the user's own.
      const setup = ['if [ -n "${ZDOTDIR+set}" ]; then export SPEX_USER_ZDOTDIR="$ZDOTDIR"; fi', `export ZDOTDIR=${shellQuote(dir)}`];
      return { ...interactive, setup, args: ["-i"] };
    }
    case "fish": {
      const rc = installHookFile(home, "spex-init", rcText("launch-templates/shell-rc.fish", "hooks/shell-hook.fish"), ".fish");
      // fish runs --init-command after the user's config.fish.
      return { ...interactive, setup: [`export SPEX_SHELL_RC=${shellQuote(rc)}`], args: ["-i", "-C", "source $SPEX_SHELL_RC; set -e SPEX_SHELL_RC"] };
    }
    default: {
      const watch = installHookFile(home, "spex-shell-watch", `#!/bin/sh\n${ASSETS["hooks/shell-hook.sh"]!}${ASSETS["hooks/shell-watch.sh"]!}`);
      return { readiness: "pid", typesPrompt: false, setup: [`sh ${shellQuote(watch)} "$$" </dev/null >/dev/null 2>&1 &`], args: [] };
    }
  }
}
