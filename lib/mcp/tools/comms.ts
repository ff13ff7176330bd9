// Messages and waiting: session_send queues a message from the caller,
// session_wait parks one tool call until a session moves (seed 002: 50 s by
// default, at most 5 min, since clients cut long calls short).
import { AGENT_WAIT_DEFAULT_MS, AGENT_WAIT_MAX_MS, type SenderInput, agentWaitTimeoutMs, sendToSelector, waitOnSelectors } from "../../comms";
import { DISPLAY_STATUSES, type DisplayStatus } from "../../record";
import { callerId } from "../caller";
import { MCP_LIMITS } from "../limits";
import { READ, type ToolContext, type ToolDefinition, WRITE } from "../tool";

const SELECTOR = "full id, unique id prefix, name, branch or node";

/** The caller as a sender: its session, or, outside one, the client named for what it is (it cannot be replied to). */
function senderOf(ctx: ToolContext): SenderInput {
  const me = callerId(ctx.caller);
  return me ? { kind: "session", id: me } : { kind: "name", name: `${ctx.client} (MCP, no spex session)` };
}

export const sessionSend: ToolDefinition = {
  name: "session_send",
  title: "Message a session",
  description:
    "Send a message to another session, from you. It is appended to the target's timeline and typed into its agent's composer once the agent is at rest (after its current turn), headed with your label and how to reply; multi-line text stays one message. Answers with the message id and its state: delivered, queued (with its place in the queue and why it waits, e.g. recipient stopped; delivered on resume), or held (the target is dead or the paste could not be confirmed). Writing back to a session that messaged you marks its messages answered (`answered` lists them); `reply_to` names the one you answer. Refused: message_too_large (over 8 KiB), queue_full, message_repeated (the same text still queued or just delivered), send_self, reply_invalid.",
  input: {
    fields: {
      session: { type: "string", description: `The recipient (${SELECTOR})`, minLength: 1, maxLength: MCP_LIMITS.selector },
      text: { type: "string", description: "The message, as the recipient's agent should read it", minLength: 1, maxLength: MCP_LIMITS.message },
      reply_to: { type: "string", description: "The id of the message (sent to you by this recipient) this one answers", minLength: 1, maxLength: MCP_LIMITS.messageId },
    },
    required: ["session", "text"],
  },
  hints: { ...WRITE, idempotentHint: false },
  call: (ctx, args) => sendToSelector(ctx.store, args.session, { from: senderOf(ctx), text: args.text, replyTo: args.reply_to }),
};

export const sessionWait: ToolDefinition = {
  name: "session_wait",
  title: "Wait for sessions",
  description: `Park until sessions move, instead of polling them. By default it returns the next events on their timelines (state changes, messages) after the last ones you were given; with \`idle\` it returns once a session is at rest (its turn ended, nothing queued for it); with \`until\` once it shows one of those display statuses. Waits ${AGENT_WAIT_DEFAULT_MS / 1000} s unless \`timeout_seconds\` says otherwise (at most ${AGENT_WAIT_MAX_MS / 60000} min). \`outcome\` is reached, timed_out (nothing yet: call it again), died (the agent or its pane is gone while its record says it runs), stalled (its API holds it up: a rate or usage limit, or a login or key it needs; each session's \`stall\` says which), stopped (stopped or archived instead) or gone (closed); \`sessions\` holds each one's state now.`,
  input: {
    fields: {
      sessions: { type: "array", description: `Sessions to wait on (${SELECTOR}); default: every session of the project but you`, items: { maxLength: MCP_LIMITS.selector }, minItems: 1, maxItems: MCP_LIMITS.sessions },
      idle: { type: "boolean", description: "Wait until the session is at rest rather than for its next event" },
      until: { type: "array", description: "Wait until the session shows one of these display statuses", items: { enum: DISPLAY_STATUSES, maxLength: MCP_LIMITS.word }, minItems: 1, maxItems: DISPLAY_STATUSES.length },
      all: { type: "boolean", description: "With idle or until and several sessions: wait for every one (default: any)" },
      timeout_seconds: { type: "number", description: `Give up after this many seconds (default ${AGENT_WAIT_DEFAULT_MS / 1000}, at most ${AGENT_WAIT_MAX_MS / 1000})`, minimum: 0, maximum: AGENT_WAIT_MAX_MS / 1000 },
    },
  },
  hints: READ,
  call(ctx, args) {
    const me = callerId(ctx.caller);
    return waitOnSelectors(ctx.store, {
      selectors: args.sessions ?? [],
      idle: args.idle,
      until: args.until as DisplayStatus[] | undefined,
      all: args.all,
      timeoutMs: agentWaitTimeoutMs(args.timeout_seconds === undefined ? undefined : args.timeout_seconds * 1000),
      // Cursor-backed for a session: the next wait resumes right after what this one returned.
      cursorKey: me,
      self: { id: me },
      // A cancelled call must not consume the events it would have returned.
      signal: ctx.signal,
      // A stall no hook reports (a rate limit on a Codex or Gemini screen) ends the wait too.
      probe: async (ids) => (await import("../../attention/stall-probe")).probeStalls(ctx.store, ids),
    });
  },
};
