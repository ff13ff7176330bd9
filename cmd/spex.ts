// Entry point: argv0 dispatch (`sessions X` is `spex session X`,
// `post-checkout` is the git hook), then clipanion with our error format,
// `spex help …`, and a verb list for a bare namespace (`spex session`).
import { Builtins, type BaseContext, type CommandClass } from "clipanion";
import { basename } from "node:path";
import { commands } from "./registry";
import { reportError, writeJson } from "../lib/cli/output";
import { SpexCli } from "../lib/cli/help";
import { shapeOf } from "../lib/cli/shape";
import { isNamespace, renderNamespace } from "../lib/cli/namespaces";
import { diagnoseArgs, leadingWords } from "../lib/cli/diagnose";
import type { SpexContext } from "../lib/cli/context";
import { SpexError } from "../lib/errors";
import { SpexCommand } from "./base";
import { RemotableCommand, routeRemotable } from "./remotable";
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
 * matches nothing gets them all, for the help.
 */
export function candidateCommands(args: string[]): CommandClass<any>[] {
  // A path word never starts with `-` except `--version`, so comparing with argv itself is enough.
  const matching = commands.filter((c) => (c.paths ?? []).some((p) => p.length > 0 && p.every((w, i) => args[i] === w)));
  return matching.length > 0 ? matching : commands;
}

export function buildCli(args?: string[]): SpexCli<SpexContext> {
  const cli = new SpexCli<SpexContext>({ binaryLabel: "spex", binaryName: "spex", binaryVersion: VERSION, enableColors: false, enableCapture: false });
  cli.register(Builtins.HelpCommand);
  for (const c of args ? candidateCommands(args) : commands) cli.register(c);
  return cli;
}

const isHelpFlag = (a: string) => a === "--help" || a === "-h";

/** clipanion's parse error as one line with a hint (it would print usage errors on stdout). */
function usageError(error: Error, args: string[]): SpexError {
  if (error.name === "UnknownSyntaxError") {
    const diagnosed = diagnoseArgs(commands.map(shapeOf), args);
    if (diagnosed) return diagnosed;
  }
  const message = error.message
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("$ ") && !/^\d+\. /.test(l) && !/^While running/.test(l))
    .join(" ")
    .replace(/^(Usage|Unknown Syntax) Error: /i, "")
    .replace(/\.$/, "");
  const verb = leadingWords(args).slice(0, 2).join(" ");
  return new SpexError("usage", message, { hint: `see \`spex ${verb} --help\``, exitCode: 2 });
}

/** `spex help`, `spex help session`, `spex help session new`: the same pages as `--help`. */
function helpArgs(words: string[]): string[] {
  return words.length === 0 ? ["--help"] : [...words, "--help"];
}

export async function runCli(args: string[], base: BaseContext): Promise<number> {
  // Help pages have no options of their own: `spex help --json` is `spex --help`.
  if (args[0] === "help") args = helpArgs(args.slice(1).filter((a) => !a.startsWith("-")));
  const context: SpexContext = { ...base, commands };
  const cli = buildCli(args);
  const json = args.includes("--json");
  let command;
  try {
    command = cli.process(args, context);
  } catch (error) {
    // A bare namespace (`spex session`, `sessions --help`) lists its verbs.
    const words = args.filter((a) => !isHelpFlag(a));
    if (words.length === leadingWords(args).length) {
      const shapes = commands.map(shapeOf);
      if (isNamespace(shapes, words)) {
        context.stdout.write(renderNamespace(shapes, words));
        return 0;
      }
    }
    return reportError(usageError(error as Error, args), context, json);
  }
  // A verb aimed at another machine runs there; one aimed here may have had its selector or folder adjusted.
  const remotable: unknown = command;
  if (remotable instanceof RemotableCommand) {
    try {
      const remote = await routeRemotable(remotable, args, context);
      if (remote !== undefined) return remote;
    } catch (error) {
      return reportError(error, context, remotable.json);
    }
  }
  const exit = await cli.run(command, context);
  if (command instanceof SpexCommand && command.failure !== undefined) {
    return reportError(command.failure, context, command.json);
  }
  return exit;
}

export { writeJson };
