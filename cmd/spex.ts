// Entry point: argv0 dispatch (`sessions X` is `spex session X`,
// `post-checkout` is the git hook), then clipanion with our error format.
import { Builtins, Cli, type BaseContext } from "clipanion";
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

export function buildCli(): Cli<BaseContext> {
  const cli = new Cli({ binaryLabel: "spex", binaryName: "spex", binaryVersion: VERSION, enableColors: false, enableCapture: false });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const c of commands) cli.register(c);
  return cli;
}

export async function runCli(args: string[], context: BaseContext): Promise<number> {
  const cli = buildCli();
  const json = args.includes("--json");
  let command;
  try {
    command = cli.process(args, context);
  } catch (error) {
    // clipanion would print usage errors on stdout: they belong on stderr, exit 2.
    const message = (error as Error).message
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("$ "))
      .join(" ")
      .replace(/^(Usage|Unknown Syntax) Error: /i, "");
    const candidates = (error as Error).message.split("\n").filter((l) => l.trim().startsWith("$ ")).map((l) => l.trim().slice(2));
    return reportError(
      new SpexError("usage", candidates.length ? `${message} ${candidates.slice(0, 5).join(" | ")}` : message, { hint: `see \`spex ${args.filter((a) => !a.startsWith("-")).slice(0, 2).join(" ")} --help\``.replace("  ", " "), exitCode: 2 }),
      context,
      json,
    );
  }
  const exit = await cli.run(command, context);
  if (command instanceof SpexCommand && command.failure !== undefined) {
    return reportError(command.failure, context, command.json);
  }
  return exit;
}

export { writeJson };
