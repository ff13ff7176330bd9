// `spex session done --then archive|stop` and `--cancel`: store (or withdraw)
// an after-turn request on the agent's own record, optionally with the
// proposal declared in the same call. The Stop hook carries the request out.
import { writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import type { AfterTurn, Proposal } from "../../lib/record";
import { declareState, resolveOwnSession } from "../../lib/sessions";
import { currentProject } from "../../lib/store";
import { requestAfterTurn } from "../../lib/teardown/after-turn";
import type { DeclareCommand } from "./declare";

export interface AfterTurnFlags {
  propose: Proposal | undefined;
  then: Exclude<AfterTurn, ""> | undefined;
  cancel: boolean;
}

export async function afterTurnRequest(cmd: DeclareCommand, flags: AfterTurnFlags, readNote: () => Promise<string | undefined>): Promise<number> {
  if (flags.then !== undefined && flags.cancel) {
    throw new SpexError("usage", "give --then or --cancel, not both", { exitCode: 2 });
  }
  const { propose } = flags;
  const then: AfterTurn = flags.cancel ? "" : flags.then ?? "";
  const store = currentProject();
  const id = resolveOwnSession(store, cmd.session);
  if (propose) await declareState(store, id, { status: "awaiting", proposal: propose, note: await readNote(), declared: "done" });
  const change = await requestAfterTurn(store, id, then);
  if (cmd.json) writeJson(cmd.context.stdout, { id, afterTurn: then, proposal: propose ?? null, changed: change !== undefined });
  else cmd.context.stdout.write(then ? `${id.slice(0, 8)}: will ${then} once the current turn ends\n` : `${id.slice(0, 8)}: no after-turn request\n`);
  return 0;
}
