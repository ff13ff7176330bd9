// The shell harness: any command, for a newcomer without an agent account and
// for scripted work. A launcher that is just an interactive shell (bash, zsh,
// fish) gets spex's rc and reports its own lifecycle from its prompt hooks;
// any other command is a plain command whose rest is read from its pane.
import { basename } from "node:path";
import type { HarnessAdapter } from "./types";

export const INTERACTIVE_SHELLS = ["bash", "zsh", "fish"] as const;
export type InteractiveShell = (typeof INTERACTIVE_SHELLS)[number];

/** Without bash, zsh or fish: print the prompt, run it, then stay in sh (rest is read from the pane). */
export const PLAIN_SHELL_COMMAND = `sh -c 'printf "%s\\n" "$1"; eval "$1"; exec sh' spex-shell`;

/**
 * The interactive shell a launcher command names, or undefined for a plain
 * command. Only a command that is the shell alone (a path allowed) qualifies:
 * options or a script would change how it starts, and spex could no longer
 * promise its rc runs.
 */
export function interactiveShellOf(command: string): InteractiveShell | undefined {
  const word = command.trim();
  if (word === "" || /[\s'"\\$`;&|<>()]/.test(word)) return undefined;
  const name = basename(word);
  return (INTERACTIVE_SHELLS as readonly string[]).includes(name) ? (name as InteractiveShell) : undefined;
}

/**
 * The built-in `shell` launcher's command: the user's login shell when it is
 * bash, zsh or fish, else the first of those on PATH, else plain sh.
 */
export function defaultShellCommand(env: NodeJS.ProcessEnv, which: (program: string) => string | undefined): string {
  const login = env.SHELL ?? "";
  if (interactiveShellOf(login) && which(basename(login))) return basename(login);
  return INTERACTIVE_SHELLS.find((s) => which(s)) ?? PLAIN_SHELL_COMMAND;
}

/**
 * Any command. Readiness, arguments and where the prompt goes depend on the
 * command (lib/launch/shell.ts); these fields are the plain command's.
 */
export const shell: HarnessAdapter = {
  name: "shell",
  defaultCommand: PLAIN_SHELL_COMMAND,
  defaultCommandFor: defaultShellCommand,
  hookEvents: {},
  interruptKeys: ["C-c"],
  readiness: "pid",
  submitQuietMs: 0,
  // Any command: spex cannot know which flag, if any, would pick a model.
  spawn: { model: false },
  launchArgs: () => [],
  resumeArgs: () => [],
  hookConfigFiles: [],
  hooksFromStartFolder: false,
  renderHooks: async () => [],
  mcpConfigFiles: [],
  fatalScreens: [],
};
