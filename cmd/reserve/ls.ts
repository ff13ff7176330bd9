import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { formatTable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { listReservations, optionalActor } from "../../lib/coord";

export class ReserveLsCommand extends SpexCommand {
  static paths = [["reserve", "ls"], ["reserve", "list"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "list every live file reservation",
    details: `
      Expired leases and leases of sessions whose record is gone are not shown. \`mine\` marks the acting session's leases.
    `,
    examples: [
      ["What the fleet is editing", "spex reserve ls"],
      ["As JSON", "spex reserve ls --json"],
    ],
  });

  session = Option.String("--session", { description: "Mark this session's leases as mine (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Mark this person's leases as yours (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const leases = listReservations(store, optionalActor(store, { session: this.session, as: this.as }));
    if (this.json) {
      writeJson(this.context.stdout, leases);
      return 0;
    }
    if (leases.length === 0) {
      this.context.stdout.write("no reservations\n");
      return 0;
    }
    const rows = leases.map((l) => [l.pattern, l.mode, `${l.holder}${l.mine ? " (you)" : ""}`, l.expires_in, l.note]);
    this.context.stdout.write(formatTable(["PATTERN", "MODE", "HOLDER", "EXPIRES IN", "NOTE"], rows));
    return 0;
  }
}
