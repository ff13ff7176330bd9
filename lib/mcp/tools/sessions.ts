// The session tools: list, show, create. Each is the CLI verb's own function
// (lib/verbs) with the caller's defaults filled in.
import { groupMembership } from "../../coord";
import { listSessions, STATUS_WORDS } from "../../verbs/list";
import { newSession } from "../../verbs/new";
import { showSession } from "../../verbs/show";
import { callerId, requireCaller } from "../caller";
import { READ, type ToolDefinition, WRITE } from "../tool";

const SELECTOR = "a session: full id, unique id prefix (8 characters are plenty), name, branch or node";

export const sessionList: ToolDefinition = {
  name: "session_list",
  title: "List sessions",
  description:
    "List the agent sessions of this repository, one row each, as `spex session ls --json` prints them: id, label, display status (working, idle, asking, parked, review, done, offline, …), branch, worktree, parent, group, proposal, a one-line note and prompt preview. Archived sessions are left out unless `all` is true. Use it to see what the fleet is doing before you message, wait on or create sessions.",
  input: {
    fields: {
      sessions: { type: "array", description: `Only these sessions (each ${SELECTOR}); archived ones included`, minItems: 1 },
      status: { type: "array", description: "Keep only rows showing one of these display statuses (or the lifecycles active, awaiting)", items: { enum: STATUS_WORDS }, minItems: 1 },
      all: { type: "boolean", description: "Include archived sessions (default false)" },
    },
  },
  hints: READ,
  listKey: "sessions",
  async call(ctx, args) {
    return (await listSessions(ctx.store, { selectors: args.sessions, status: args.status, all: args.all })).rows;
  },
};

export const sessionShow: ToolDefinition = {
  name: "session_show",
  title: "Show a session",
  description:
    "One session in full, as `spex session show --json` prints it: its list row plus the full note, the full prompt it was started with, the whole record and the last screen saved when it stopped. Without `session` it shows your own session.",
  input: { fields: { session: { type: "string", description: `The session to show (${SELECTOR}); default: you`, minLength: 1 } } },
  hints: READ,
  async call(ctx, args) {
    return (await showSession(ctx.store, args.session ?? requireCaller("session_show", ctx.caller))).json;
  },
};

export const sessionNew: ToolDefinition = {
  name: "session_new",
  title: "Start a session",
  description:
    "Start a new agent session in its own git worktree, branch and tmux session, with `prompt` as its first instruction (as `spex session new --json`). It is your child by default: you are notified of its state changes and it lands in your group. Give it one self-contained task; then `session_wait` on it and read its answer with `session_show` or `session_read`. Refused with max_active_reached when the project runs its limit of sessions.",
  input: {
    fields: {
      prompt: { type: "string", description: "The new agent's first instruction, self-contained (it does not see your conversation). A [[topic]] mention names its branch", minLength: 1 },
      launcher: { type: "string", description: "A launcher from spexcode.json or a harness: claude, codex, gemini, shell (default: the project's default launcher)", minLength: 1 },
      name: { type: "string", description: "A display name for the new session" },
      base: { type: "string", description: "A commit-ish to fork from (default: the main branch as it is now)", minLength: 1 },
      parent: { type: "string", description: `Its parent (${SELECTOR}); default: you. "" makes it a top-level session` },
      group: { type: "string", description: 'A group to file it in (see group_list); default: your group. "" is the root' },
      no_launch: { type: "boolean", description: "Make the worktree and record but start no agent (default false)" },
    },
    required: ["prompt"],
  },
  hints: { ...WRITE, idempotentHint: false },
  async call(ctx, args) {
    const me = callerId(ctx.caller);
    const parent = args.parent === undefined ? me : (args.parent as string) || undefined;
    // DESIGN.md §9: a session an agent creates lands in its creator's group.
    const group = args.group ?? (me ? groupMembership(ctx.store).get(me) : undefined) ?? "";
    const created = await newSession(ctx.store, {
      target: {},
      prompt: args.prompt,
      launcher: args.launcher,
      name: args.name,
      base: args.base,
      parent,
      noLaunch: args.no_launch,
      group,
    });
    return created.json;
  },
};
