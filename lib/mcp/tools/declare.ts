// The caller declaring its own state (spex session done / park / ask): what
// the board shows for it until its next turn starts.
import { type StateDeclaration, declareOwnState } from "../../sessions";
import { requireCaller } from "../caller";
import { MCP_LIMITS } from "../limits";
import { type ToolContext, type ToolDefinition, WRITE } from "../tool";

async function declare(tool: string, ctx: ToolContext, d: StateDeclaration) {
  return (await declareOwnState(ctx.store, requireCaller(tool, ctx.caller), d)).result;
}

const DECLARES = { ...WRITE, idempotentHint: true };

export const sessionDone: ToolDefinition = {
  name: "session_done",
  title: "Declare your work done",
  description:
    "Declare your own task settled and propose what happens next: merge (review and land your branch), nothing (nothing to land) or close (the worktree is no longer needed). You then show as review, done or close-pending until a new turn starts, and your parent is notified. Only for an agent that spex started.",
  input: {
    fields: {
      propose: { type: "string", description: "merge, nothing or close", enum: ["merge", "nothing", "close"], maxLength: MCP_LIMITS.word },
      note: { type: "string", description: "What was done, for whoever reviews it", maxLength: MCP_LIMITS.note },
    },
    required: ["propose"],
  },
  hints: DECLARES,
  call: (ctx, args) => declare("session_done", ctx, { status: "awaiting", proposal: args.propose, note: args.note, declared: "done" }),
};

export const sessionPark: ToolDefinition = {
  name: "session_park",
  title: "Park yourself",
  description: "Declare yourself parked: blocked or waiting on something outside this session (say what in `note`). You show as parked until a new turn starts; your parent is notified. Only for an agent that spex started.",
  input: { fields: { note: { type: "string", description: "Why you are parked and what would unblock you", minLength: 1, maxLength: MCP_LIMITS.note } }, required: ["note"] },
  hints: DECLARES,
  call: (ctx, args) => declare("session_park", ctx, { status: "parked", note: args.note, declared: "park" }),
};

export const sessionAsk: ToolDefinition = {
  name: "session_ask",
  title: "Ask a question",
  description: "Declare that you are asking a human a question (the question goes in `note`). You show as asking until a new turn starts; your parent is notified. Only for an agent that spex started.",
  input: { fields: { note: { type: "string", description: "The question, complete enough to answer without context", minLength: 1, maxLength: MCP_LIMITS.note } }, required: ["note"] },
  hints: DECLARES,
  call: (ctx, args) => declare("session_ask", ctx, { status: "asking", note: args.note, declared: "ask" }),
};
