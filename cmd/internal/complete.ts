import { Command, Option } from "clipanion";
import { completeWords, type CompletableCommand } from "../../lib/cli/complete";
import { currentProject } from "../../lib/store";
import { listRows } from "../../lib/sessions";

/** Hook-facing: `spex internal complete -- <words…>` prints completion candidates, one per line. */
export class InternalCompleteCommand extends Command {
  static paths = [["internal", "complete"]];

  words = Option.Rest();

  async execute(): Promise<number> {
    // Imported here: the registry imports this file.
    const { commands } = await import("../registry");
    const { buildCli } = await import("../spex");
    const defs = buildCli().definitions();
    const completable: CompletableCommand[] = commands
      .filter((c) => c.usage !== undefined)
      .map((c) => {
        const def = defs.find((d) => (c.paths ?? []).some((p) => d.path === `spex ${p.join(" ")}`));
        const options = (def?.options ?? []).flatMap((o) => o.definition.split(/[ ,]+/).filter((w) => w.startsWith("--")));
        // Positionals named SEL (or ID) take a session selector.
        return { paths: c.paths ?? [], options, takesSelector: /\bSEL\b|<ID>|\bselector\b/.test(def?.usage ?? "") };
      });
    const selectors = () => {
      try {
        return listRows(currentProject()).flatMap((r) => (r.kind === "ok" ? [r.shortId, ...(r.name ? [r.name] : [])] : [r.shortId]));
      } catch {
        return [];
      }
    };
    const words = this.words[0] === "--" ? this.words.slice(1) : this.words;
    for (const w of completeWords(words.length ? words : [""], completable, selectors)) this.context.stdout.write(`${w}\n`);
    return 0;
  }
}
