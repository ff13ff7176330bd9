// Running a verb: the command manifest says which command modules the argv
// can name (a verb that is also a namespace, `session watch`, names two);
// only those are imported and registered with clipanion, which parses the
// argv and runs the verb with our error format.
import { Builtins, type BaseContext, type CommandClass } from "clipanion";
import { type CommandEntry, entriesFor } from "../lib/cli/manifest";
import { reportError } from "../lib/cli/output";
import { SpexCli } from "../lib/cli/help";
import { diagnoseArgs, leadingWords, matchCommand } from "../lib/cli/diagnose";
import type { SpexContext } from "../lib/cli/context";
import { SpexError } from "../lib/errors";
import { SpexCommand } from "./base";
import { RemotableCommand, travels } from "./remotable";
import { namespaceListing } from "./front";
import { VERSION } from "../lib/version";
import { isHelpFlag } from "./argv";
import { lazyInput, lazyOutput } from "../lib/cli/stdio";
// Every process that runs a verb may write records: it also appends their timeline events and notifies watchers.
import "../lib/comms/install";

export function buildCli(classes: readonly CommandClass<any>[]): SpexCli<SpexContext> {
  const cli = new SpexCli<SpexContext>({ binaryLabel: "spex", binaryName: "spex", binaryVersion: VERSION, enableColors: false, enableCapture: false });
  cli.register(Builtins.HelpCommand);
  for (const c of classes) cli.register(c);
  return cli;
}

/** clipanion's parse error as one line with a hint (it would print usage errors on stdout). */
function usageError(error: Error, args: string[], entries: readonly CommandEntry[]): SpexError {
  if (error.name === "UnknownSyntaxError") {
    const diagnosed = diagnoseArgs([...entries], args);
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

/** The process's own stdio as a command context, each stream set up only when used (lib/cli/stdio.ts). */
export function processContext(): BaseContext {
  return {
    env: process.env,
    stdin: lazyInput(() => process.stdin),
    stdout: lazyOutput(1, () => process.stdout),
    stderr: lazyOutput(2, () => process.stderr),
    colorDepth: 1,
  };
}

/**
 * `spex session close abc --help`: a person appends --help to a line they are
 * about to run, to read what it does first. clipanion takes help only right
 * after the verb, so the rest of the line (up to a `--`, after which a
 * `--help` is text) is dropped and the verb's page shown instead.
 */
export function helpForLine(args: string[], named: readonly CommandEntry[]): string[] | undefined {
  const end = args.indexOf("--");
  if (!args.slice(0, end < 0 ? undefined : end).some(isHelpFlag)) return undefined;
  const verb = matchCommand([...named], leadingWords(args))?.path;
  return verb ? [...verb, "--help"] : undefined;
}

export async function runVerb(argv: string[], base: BaseContext, entries: readonly CommandEntry[]): Promise<number> {
  const named = entriesFor(entries, argv);
  const args = helpForLine(argv, named) ?? argv;
  const json = args.includes("--json");
  const context: SpexContext = { ...base, shapes: entries };
  const cli = buildCli(await Promise.all((named.length > 0 ? named : entries).map((e) => e.load())));
  let command;
  try {
    command = cli.process(args, context);
  } catch (error) {
    const listing = namespaceListing(args, entries);
    if (listing !== undefined) {
      context.stdout.write(listing);
      return 0;
    }
    return reportError(usageError(error as Error, args, entries), context, json);
  }
  // A verb aimed at another machine runs there; one aimed here may have had its selector or folder adjusted.
  const remotable: unknown = command;
  if (remotable instanceof RemotableCommand && travels(remotable)) {
    try {
      const { routeRemotable } = await import(/* webpackMode: "eager" */ "./remote-route");
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
