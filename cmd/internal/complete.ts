import { Command, Option } from "clipanion";
import { completeWords } from "../../lib/cli/complete";
import { shapeOf } from "../../lib/cli/shape";
import type { SpexContext } from "../../lib/cli/context";
import { currentProject } from "../../lib/store";
import { listRows } from "../../lib/sessions";
import { readMachines } from "../../lib/machines/list";
import { loadConfig } from "../../lib/config";
import { listGroups } from "../../lib/coord";

/** Outside a project (or on any read error) a source offers nothing rather than failing the shell's completion. */
function quietly(read: () => string[]): () => string[] {
  return () => {
    try {
      return read();
    } catch {
      return [];
    }
  };
}

/** Hook-facing: `spex internal complete -- <words…>` prints completion candidates, one per line. */
export class InternalCompleteCommand extends Command<SpexContext> {
  static paths = [["internal", "complete"]];

  words = Option.Rest();

  async execute(): Promise<number> {
    const shapes = this.context.commands.map(shapeOf);
    const words = this.words[0] === "--" ? this.words.slice(1) : this.words;
    const candidates = completeWords(words.length ? words : [""], shapes, {
      session: quietly(() => listRows(currentProject()).flatMap((r) => (r.kind === "ok" ? [r.shortId, ...(r.name ? [r.name] : [])] : [r.shortId]))),
      launcher: quietly(() => Object.keys(loadConfig(currentProject().root).launchers)),
      group: quietly(() => listGroups(currentProject()).map((g) => g.path)),
      machine: quietly(() => readMachines().map((m) => m.name)),
    });
    for (const w of candidates) this.context.stdout.write(`${w}\n`);
    return 0;
  }
}
