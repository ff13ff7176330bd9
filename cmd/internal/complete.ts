import { Command, Option } from "clipanion";
import type { SpexContext } from "../../lib/cli/context";

/**
 * Hook-facing: `spex internal complete -- <words…>` prints completion candidates, one per line.
 * The entry point answers it before loading this class (cmd/main.ts); run through clipanion it answers the same.
 */
export class InternalCompleteCommand extends Command<SpexContext> {
  static paths = [["internal", "complete"]];

  words = Option.Rest();

  async execute(): Promise<number> {
    // Imported here: completion's table is generated from the command classes, this one included.
    const { completeArgv } = await import(/* webpackMode: "eager" */ "../../lib/cli/complete-sources");
    for (const w of await completeArgv(this.words, this.context.shapes)) this.context.stdout.write(`${w}\n`);
    return 0;
  }
}
