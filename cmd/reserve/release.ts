import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { actingActor, releaseReservations } from "../../lib/coord";

export class ReserveReleaseCommand extends SpexCommand {
  static paths = [["reserve", "release"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "drop your file reservations",
    details: `
      Releases the acting session's leases on the given patterns (exactly as reserved), or all of them when none are given. Other sessions' leases are never touched.
    `,
    examples: [
      ["Release one pattern", "spex reserve release src/auth"],
      ["Release everything you hold", "spex reserve release"],
    ],
  });

  patterns = Option.Rest({ name: "PATTERN" });
  session = Option.String("--session", { description: "The releasing session (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Act as this person (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const released = await releaseReservations(store, actingActor(store, { session: this.session, as: this.as }), this.patterns);
    if (this.json) writeJson(this.context.stdout, { released });
    else this.context.stdout.write(released.length === 0 ? "held no matching lease\n" : released.map((l) => `${printableLine(`released ${l.pattern}`)}\n`).join(""));
    return 0;
  }
}
