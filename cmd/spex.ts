// The CLI as one call (argv and a context in, exit code out), as the entry
// point runs it but for any streams: the in-process tests drive it. The
// entry point (cmd/main.ts) takes the same steps with shortcuts for
// `--version` and completion: an answer from the manifest (cmd/front.ts),
// else the verb (cmd/run-verb.ts).
import type { BaseContext } from "clipanion";
import { COMMANDS } from "../lib/generated/commands";
import type { CommandEntry } from "../lib/cli/manifest";
import { dispatchArgv } from "./argv";
import { manifestAnswer, normalizeArgs } from "./front";
import { buildCli, runVerb } from "./run-verb";

export { buildCli, dispatchArgv };

export async function runCli(args: string[], base: BaseContext, entries: readonly CommandEntry[] = COMMANDS): Promise<number> {
  args = normalizeArgs(args);
  const answer = manifestAnswer(args, entries);
  if (!answer) return runVerb(args, base, entries);
  if (answer.stdout) base.stdout.write(answer.stdout);
  if (answer.stderr) base.stderr.write(answer.stderr);
  return answer.code;
}
