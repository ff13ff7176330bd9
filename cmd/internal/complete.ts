import { Command, Option } from "clipanion";
import type { SpexContext } from "../../lib/cli/context";
import { completeArgv } from "../../lib/cli/complete-sources";

/**
 * Hook-facing: `spex internal complete -- <words…>` prints completion candidates, one per line.
 * The entry point answers it before loading this class (cmd/main.ts); run through clipanion it answers the same.
 */
export class InternalCompleteCommand extends Command<SpexContext> {
  static paths = [["internal", "complete"]];

  words = Option.Rest();

  async execute(): Promise<number> {
    for (const w of await completeArgv(this.words, this.context.shapes)) this.context.stdout.write(`${w}\n`);
    return 0;
  }
}
