// What an agent lifecycle event means for the record. Only real changes reach
// here: the shell hook's fast path already exited when nothing would change.
import { clearFence } from "../launch/fence";
import type { HookAction } from "../harness";
import { declareState } from "../sessions/state";
import type { ProjectStore } from "../store";
import type { RecordChange } from "../record";
import type { HookPayload } from "./payload";
import { runAfterTurn } from "../teardown/after-turn";
import { drainDeliveries } from "../comms/deliver";

const QUESTION_NOTIFICATIONS = new Set(["permission_prompt", "elicitation_dialog"]);

function isQuestion(p: HookPayload): boolean {
  if (p.notification_type) return QUESTION_NOTIFICATIONS.has(p.notification_type);
  // Older payloads carry only a message.
  return typeof p.message === "string" && /permission|approve|needs your|waiting for your input/i.test(p.message);
}

export async function handleHookEvent(store: ProjectStore, id: string, action: HookAction, payload: HookPayload): Promise<RecordChange | undefined> {
  // Subagent payloads describe a child's turn, not the session's.
  if (payload.agent_id) return undefined;
  switch (action) {
    case "start":
      return clearFence(store, id, typeof payload.session_id === "string" ? payload.session_id : undefined);
    case "turn":
      return declareState(store, id, { status: "active", newTurn: true });
    case "tool":
      return declareState(store, id, { status: "active", stopped: false });
    case "stop": {
      const change = await declareState(store, id, { status: "idle" });
      // The turn is over: carry out an after-turn request, and hand over queued messages
      // (both in detached processes: the agent is waiting for this hook to return).
      await runAfterTurn(store, id);
      await drainDeliveries(store, id);
      return change;
    }
    case "notify":
      return isQuestion(payload) ? declareState(store, id, { status: "asking", note: typeof payload.message === "string" ? payload.message : undefined }) : undefined;
    case "fail":
      return declareState(store, id, { status: "error", note: typeof payload.error === "string" ? payload.error : typeof payload.message === "string" ? payload.message : undefined });
    case "end":
      return declareState(store, id, { status: "idle", stopped: true });
  }
}
