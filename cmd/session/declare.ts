// Shared shape of the agent's own declarations (done, park, ask): which
// session, and a note given inline or through a file so any bytes survive.
import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { textFrom } from "../../lib/cli/input";
import { type ProjectStore, currentProject } from "../../lib/store";
import { type StateDeclaration, declareOwnState, resolveOwnSession } from "../../lib/sessions";
import { labelOf } from "../../lib/naming";
import { refuseTooLong } from "../../lib/coord/limits";
import { MCP_LIMITS } from "../../lib/mcp/limits";

export abstract class DeclareCommand extends SpexCommand {
  session = Option.String("--session", { description: "The session (default: SPEX_SESSION_ID, else the worktree you are in)" });
  note = Option.String("--note", { description: "A note for whoever reads the board" });
  noteFile = Option.String("--note-file", { description: "Read the note from a file, or - for stdin" });

  protected async readNote(): Promise<string | undefined> {
    const note = await textFrom(this.note, this.noteFile, this.context.stdin, "note");
    // The same bound the MCP tools declare: a note lands in the record, the timeline and the parent's notice.
    if (note !== undefined) refuseTooLong("the note", note, MCP_LIMITS.note);
    return note;
  }

  protected async declare(build: (store: ProjectStore) => Promise<StateDeclaration>): Promise<number> {
    const store = currentProject();
    const id = resolveOwnSession(store, this.session);
    const declaration = await build(store);
    const { result, change } = await declareOwnState(store, id, declaration);
    if (this.json) {
      writeJson(this.context.stdout, result);
    } else {
      const label = change ? labelOf(change.after) : id.slice(0, 8);
      this.context.stdout.write(`${printableLine(change ? `${label}: ${change.after.status}${change.after.proposal ? ` (proposes ${change.after.proposal})` : ""}` : `${label}: unchanged`)}\n`);
    }
    return 0;
  }
}
