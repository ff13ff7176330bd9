// The base of every command: a `--json` switch and error capture, so the entry
// point prints errors in one format (stderr line, JSON object with --json).
import { Command, Option } from "clipanion";

export abstract class SpexCommand extends Command {
  json = Option.Boolean("--json", false, { description: "Print machine-readable JSON on stdout" });

  /** The error execute() threw, reported by the entry point. */
  failure: unknown;

  async catch(error: unknown): Promise<void> {
    this.failure = error;
  }
}
