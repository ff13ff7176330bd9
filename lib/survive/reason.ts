// Why a session's agent is gone (issue 27 item 2), beside `offline`. Derived,
// never stored, from the record and two facts of now: this machine's boot and
// whether the session's tmux server still runs.
//
// - `killed`: spex ended it (stop, close, archive --stop);
// - `machine_restarted`: it started in another boot than this one;
// - `tmux_server_gone`: its tmux server no longer runs (killed, crashed);
// - `agent_exited`: it ended on its own while tmux lived (it said so with
//   SessionEnd, or its process is simply gone).
// A session that never ran (queued, --no-launch, a first launch that failed)
// has no reason: nothing of it went away.
import type { SessionRecord } from "../record";

export const OFFLINE_REASONS = ["machine_restarted", "tmux_server_gone", "agent_exited", "killed"] as const;
export type OfflineReason = (typeof OFFLINE_REASONS)[number];

/** The reasons `resume --all` brings a session back from unless told otherwise: the agent died, nobody ended it. */
export const RESUMABLE_REASONS: readonly OfflineReason[] = ["machine_restarted", "tmux_server_gone", "agent_exited"];

export function isOfflineReason(value: string): value is OfflineReason {
  return (OFFLINE_REASONS as readonly string[]).includes(value);
}

export interface ReasonFacts {
  /** This machine's boot now (lib/proc agentBoot). */
  boot: string;
  /** Whether a server listens on the socket; undefined when tmux could not tell. */
  serverRunning(socket: string): boolean | undefined;
}

/**
 * The reason of a record readers see offline (the public view: a launch under
 * way shows its original). The caller asks only for offline, launched rows.
 */
export function offlineReason(view: Pick<SessionRecord, "stopped" | "stopped_by" | "agent_pid" | "agent_boot" | "tmux_socket">, facts: ReasonFacts): OfflineReason | null {
  if (view.stopped) {
    if (view.stopped_by === "spex") return "killed";
    // It died on its own and a relaunch cleared what it left (lib/teardown/stop): still for `resume --all` to bring back.
    if (view.stopped_by === "exited") return "agent_exited";
    // Its own exit was recorded (SessionEnd) while the pid stood: it left before anything else happened.
    return view.agent_pid ? "agent_exited" : null;
  }
  if (!view.agent_pid) return null;
  if (view.agent_boot && view.agent_boot !== facts.boot) return "machine_restarted";
  if (facts.serverRunning(view.tmux_socket) === false) return "tmux_server_gone";
  return "agent_exited";
}

/** What each reason means, for a person reading `show`. */
export const REASON_TEXT: Record<OfflineReason, string> = {
  machine_restarted: "the machine restarted since the agent started",
  tmux_server_gone: "its tmux server is gone (killed or crashed)",
  agent_exited: "the agent exited on its own",
  killed: "spex stopped it (stop, close or archive --stop)",
};
