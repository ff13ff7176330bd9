import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { DEFAULT_LEASE_TTL_MS, type LeaseView, actingActor, isPerson, parseTtl, reserve } from "../../lib/coord";

export function describeLease(l: LeaseView): string {
  return `${l.pattern} (${l.mode}, ${l.holder}, ${l.expires_in} left${l.note ? `: ${l.note}` : ""})`;
}

export class ReserveAddCommand extends SpexCommand {
  static paths = [["reserve"], ["reserve", "add"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "reserve paths or globs you are about to edit",
    details: `
      An advisory lease, exclusive by default, that lapses on its own after the TTL (default 30m, at most 4h). Another session's overlapping lease, where either side is exclusive, is reported as a conflict; the lease is granted all the same. Reserving a pattern again renews it. Quote globs so the shell leaves them alone.

      The lease is the session's in play (\`--session\`, \`SPEX_SESSION_ID\`, the worktree you are in); outside any session a person reserves as themselves, under their user name or \`--as NAME\`, shown \`NAME (person)\`.
    `,
    examples: [
      ["Reserve a folder for 30 minutes", "spex reserve src/auth"],
      ["A shared lease on a glob, for 45 minutes, with a note", "spex reserve 'docs/**/*.md' --shared --ttl 45m --note \"renaming headings\""],
      ["As JSON: {reserved, conflicts}", "spex reserve src/parser.ts --json"],
    ],
  });

  patterns = Option.Rest({ name: "PATTERN", required: 1 });
  shared = Option.Boolean("--shared", false, { description: "Others may edit these paths too (default: exclusive)" });
  ttl = Option.String("--ttl", { description: "How long the lease lasts: 45m, 2h, 1h30m, 90s (default 30m, max 4h)" });
  note = Option.String("--note", { description: "What you are doing there" });
  session = Option.String("--session", { description: "The reserving session (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Act as this person (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const ttlMs = this.ttl === undefined ? DEFAULT_LEASE_TTL_MS : parseTtl(this.ttl);
    const me = actingActor(store, { session: this.session, as: this.as });
    const result = await reserve(store, me, { patterns: this.patterns, mode: this.shared ? "shared" : "exclusive", ttlMs, note: this.note ?? "" });
    if (this.json) {
      writeJson(this.context.stdout, result);
      return 0;
    }
    // Patterns, holders and notes are other agents' text: shown, never acted on by the terminal.
    for (const l of result.reserved) this.context.stdout.write(`${printableLine(`reserved ${l.pattern} (${l.mode}, ${l.expires_in}${isPerson(me) ? `, as ${l.holder}` : ""})`)}\n`);
    for (const c of result.conflicts) this.context.stdout.write(`${printableLine(`conflict: ${describeLease(c)}`)}\n`);
    return 0;
  }
}
