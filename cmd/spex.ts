// Entry point: argv0 dispatch (`sessions X` is `spex session X`,
// `post-checkout` is the git hook), then clipanion with our error format.
import { Builtins, Cli, type BaseContext, type CommandClass } from "clipanion";
import { basename } from "node:path";
import { commands } from "./registry";
import { reportError, writeJson } from "../lib/cli/output";
import { SpexError } from "../lib/errors";
import { SpexCommand } from "./base";
import { VERSION } from "../lib/version";
// Every process that writes records also appends timeline events and notifies watchers.
import "../lib/comms/install";

/** Rewrite argv by the name we were called as. */
export function dispatchArgv(argv0: string, args: string[]): string[] {
  const name = basename(argv0);
  if (name === "sessions") return ["session", ...args];
  if (name === "post-checkout") return ["internal", "post-checkout", ...args];
  return args;
}

/**
 * The commands whose path the argv starts with. clipanion compiles a parser
 * over every registered command on each run (~10 ms for all of ours), so the
 * hot paths (hooks, state writes) register only what can match; an argv that
 * matches nothing gets them all, for the "did you mean" list and the help.
 */
export function candidateCommands(args: string[]): CommandClass<any>[] {
  if (args[0] === "--version" || args[0] === "-v") return [];
  const words: string[] = [];
  for (const a of args) {
    if (a.startsWith("-")) break;
    words.push(a);
  }
  const matching = commands.filter((c) => (c.paths ?? []).some((p) => p.length > 0 && p.every((w, i) => words[i] === w)));
  return matching.length > 0 ? matching : commands;
}

export function buildCli(args?: string[]): Cli<BaseContext> {
  const cli = new Cli({ binaryLabel: "spex", binaryName: "spex", binaryVersion: VERSION, enableColors: false, enableCapture: false });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const c of args ? candidateCommands(args) : commands) cli.register(c);
  return cli;
}

/** clipanion's parse error as one line with a hint (it would print usage errors on stdout). */
function usageError(error: Error, args: string[]): SpexError {
  const words: string[] = [];
  for (const a of args) {
    if (a.startsWith("-")) break;
    words.push(a);
  }
  if (/^Command not found/.test(error.message)) {
    return new SpexError("usage", `unknown command "spex ${words.join(" ")}"`, { hint: "`spex --help` lists every verb", exitCode: 2 });
  }
  const message = error.message
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("$ ") && !/^\d+\. /.test(l) && !/^While running/.test(l))
    .join(" ")
    .replace(/^(Usage|Unknown Syntax) Error: /i, "")
    .replace(/\.$/, "");
  const verb = words.slice(0, 2).join(" ");
  return new SpexError("usage", message, { hint: `see \`spex ${verb} --help\``, exitCode: 2 });
}

export async function runCli(args: string[], context: BaseContext): Promise<number> {
  const cli = buildCli(args);
  const json = args.includes("--json");
  let command;
  try {
    command = cli.process(args, context);
  } catch (error) {
    return reportError(usageError(error as Error, args), context, json);
  }
  const exit = await cli.run(command, context);
  if (command instanceof SpexCommand && command.failure !== undefined) {
    return reportError(command.failure, context, command.json);
  }
  return exit;
}

export { writeJson };
