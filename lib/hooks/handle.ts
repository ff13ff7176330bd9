// What an agent lifecycle event means for the record. Only real changes reach
// here: the shell hook's fast path already exited when nothing would change.
import { clearFence } from "../launch/fence";
import type { HookAction } from "../harness";
import { declareState } from "../sessions/state";
import type { ProjectStore } from "../store";
import type { RecordChange, RecordReading, SessionRecord } from "../record";
import type { HookPayload } from "./payload";
import { type HookOwnership, descendsFrom, hookOwnership, payloadNativeId, recordableNativeId } from "./attribution";
import { SpexError } from "../errors";
import { readSession } from "../record";
import { sessionPaths } from "../store";
import { probe as probeRecordedLeaf, recordedLeaf } from "../teardown/leaf";
import { runAfterTurn } from "../teardown/after-turn";
import { drainDeliveries } from "../comms/deliver";
import { queueMayWait, scheduleLaunchDrain } from "../launch/queue-marker";
import { loadConfig } from "../config";
import { usageAtRest, usageMidTurn } from "../attention/rest";
import { stallOfHookError } from "../attention/stall";
import { serverRunning } from "../tmux";

// Claude's permission and question dialogs; Gemini's tool approval.
const QUESTION_NOTIFICATIONS = new Set(["permission_prompt", "elicitation_dialog", "ToolPermission"]);

function isQuestion(p: HookPayload): boolean {
  if (p.notification_type) return QUESTION_NOTIFICATIONS.has(p.notification_type);
  // Older payloads carry only a message.
  return typeof p.message === "string" && /permission|approve|needs your|waiting for your input/i.test(p.message);
}

/** What a permission request is about, for the note: "Bash: touch x". */
export function askNote(p: HookPayload): string | undefined {
  const tool = typeof p.tool_name === "string" ? p.tool_name : "";
  const input = (p.tool_input && typeof p.tool_input === "object" ? p.tool_input : {}) as Record<string, unknown>;
  const what = [input.command, input.description, input.file_path].find((v) => typeof v === "string" && v.trim() !== "") as string | undefined;
  const note = [tool, what?.replace(/\s+/g, " ").trim()].filter(Boolean).join(": ");
  if (!note) return undefined;
  return note.length > 200 ? `${note.slice(0, 199)}…` : note;
}

/** Refuse a hook that speaks for another conversation than the record's (see attribution.ts). */
function attribute(store: ProjectStore, id: string, reading: RecordReading, action: HookAction, payload: HookPayload): HookOwnership {
  // An absent or corrupt record is refused by the writer the action reaches.
  if (reading.kind !== "ok") return "ours";
  const record = reading.record;
  const ownership = hookOwnership(record.harness_session_id, action, payload, () => {
    const leaf = recordedLeaf(record, sessionPaths(store, id).agentPid);
    return probeRecordedLeaf(leaf) === "owned" && descendsFrom(leaf.pid);
  });
  if (ownership === "foreign") {
    throw new SpexError("hook_not_ours", `a ${action} hook for conversation ${JSON.stringify(payloadNativeId(payload).slice(0, 80))} reached session ${id.slice(0, 8)}, whose conversation is ${record.harness_session_id}; nothing was changed`, {
      hint: "a process outside this session's agent ran with its environment (for Codex: a shared app-server daemon); stop it, or relaunch the agent with spex",
    });
  }
  return ownership;
}

/**
 * A stopped record whose agent is gone (its recorded leaf is dead, or is some
 * other process now): a hook saying the agent works, asks or starts a turn is
 * late news from the agent that was stopped, and must not bring the record
 * back (seed 001: only a live, undeclared, not-stopped record changes). A
 * stopped record whose own agent still runs (Claude's /clear ends a
 * conversation and starts another in the same process) takes it as usual.
 */
function stoppedAndGone(store: ProjectStore, id: string, record: SessionRecord): boolean {
  return record.stopped && probeRecordedLeaf(recordedLeaf(record, sessionPaths(store, id).agentPid)) !== "owned";
}

/** The session's own tmux server is known to be gone (never asked of the user's default server). */
function serverGoneUnder(reading: RecordReading): boolean {
  return reading.kind === "ok" && reading.record.tmux_socket !== "" && serverRunning(reading.record.tmux_socket) === false;
}

const LIVE_ONLY: ReadonlySet<HookAction> = new Set(["turn", "tool", "ask", "notify"]);

export async function handleHookEvent(store: ProjectStore, id: string, action: HookAction, payload: HookPayload): Promise<RecordChange | undefined> {
  // Subagent payloads describe a child's turn, not the session's; but a dialog a subagent raises holds the whole session.
  if (payload.agent_id && action !== "ask" && action !== "notify") return undefined;
  // One read serves every look before a write; each write reads the record afresh under its lock.
  const reading = readSession(store, id);
  const ownership = attribute(store, id, reading, action, payload);
  if (LIVE_ONLY.has(action) && reading.kind === "ok" && stoppedAndGone(store, id, reading.record)) return undefined;
  // The look above is a cheap way out; a stop can still land between it and the write, so the write looks again under the lock.
  const unless = (record: SessionRecord) => stoppedAndGone(store, id, record);
  switch (action) {
    case "start":
      return clearFence(store, id, recordableNativeId(payload), { newConversation: ownership === "new-conversation" });
    case "turn":
      return declareState(store, id, { status: "active", newTurn: true, unless });
    case "tool": {
      const change = await declareState(store, id, { status: "active", stopped: false, inferred: true, unless });
      // A hard budget is checked at every tool call, not only at rest.
      await usageMidTurn(store, id);
      return change;
    }
    case "stop": {
      // A `done --then` asked once the turn had ended (seeing it idle) is for the next turn: only one standing now is carried out.
      const requested = reading.kind === "ok" && reading.record.after_turn !== "";
      const change = await declareState(store, id, { status: "idle", inferred: true });
      // The turn's tokens are counted before anything else happens at rest.
      await usageAtRest(store, id, { turnEnded: true });
      // The turn is over: carry out an after-turn request, and hand over queued messages
      // (both in detached processes: the agent is waiting for this hook to return).
      if (requested) await runAfterTurn(store, id);
      await drainDeliveries(store, id);
      // An agent at rest gives its slot to the launch queue when so configured.
      if (queueMayWait(store) && loadConfig(store.root).idleFreesSlot) await scheduleLaunchDrain(store);
      return change;
    }
    case "ask":
      return declareState(store, id, { status: "asking", note: askNote(payload), inferred: true, unless });
    case "notify":
      return isQuestion(payload)
        ? declareState(store, id, { status: "asking", note: typeof payload.message === "string" ? payload.message : undefined, inferred: true, unless })
        : undefined;
    case "fail":
      // Only a live (not retired: the writer refuses those), undeclared, active, running record
      // turns to error: a declaration that landed first wins, and a failure reported after
      // stop or archive is about a turn nobody waits for any more.
    {
      const change = await declareState(store, id, {
        status: "error",
        note: typeof payload.error === "string" ? payload.error : typeof payload.message === "string" ? payload.message : undefined,
        inferred: true,
        onlyFrom: ["active"],
        onlyRunning: true,
        // A rate limit or a bad key is a stall a person must see as such (lib/attention).
        stall: stallOfHookError(payload.error),
      });
      await usageAtRest(store, id);
      return change;
    }
    case "end": {
      // A tmux server that died takes its agents with it (a hangup), and they still report their end:
      // that is the server's doing, not the agent's own exit. Left unrecorded, the session reads as its
      // server gone, with the turn it was in (resume --all --note tells it what happened).
      if (serverGoneUnder(reading)) {
        await usageAtRest(store, id);
        await scheduleLaunchDrain(store);
        return undefined;
      }
      const change = await declareState(store, id, { status: "idle", stopped: true, inferred: true });
      await usageAtRest(store, id);
      // The agent exited: its slot goes to the launch queue (in a detached process: the agent waits for this hook).
      await scheduleLaunchDrain(store);
      return change;
    }
  }
}
