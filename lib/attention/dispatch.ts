// Handing a notification over. The writer that made a transition calls
// `announce` after its lock is released: when any sink wants the event it
// starts a detached `spex internal notify` and returns at once (a hook never
// waits for a webhook). That process applies the per-session rate limit
// under a lock of its own and runs the sinks; failures go to notify.log.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawnSelfDetached } from "../launch/spawn-self";
import { withLock } from "../lock";
import { readJsonState } from "../record";
import { writeStoreFile } from "../nofollow";
import { type ProjectStore, sessionPaths } from "../store";
import { type AttentionConfig, loadAttentionConfig, sinksFor } from "./config";
import { logNotify } from "./log";
import type { NotificationPayload } from "./payload";
import { runSink, sinkName } from "./sinks";

/** The config in force, or undefined (logged) when it cannot be read: a broken config must not fail a state write. */
function configOrLog(store: ProjectStore, payload: Pick<NotificationPayload, "event" | "session_id">): AttentionConfig | undefined {
  try {
    return loadAttentionConfig(store.home, store.root || undefined);
  } catch (e) {
    logNotify(store.home, { outcome: "failed", event: payload.event, session: payload.session_id, sink: "config", detail: (e as Error).message });
    return undefined;
  }
}

/**
 * Start the detached delivery of one notification, if any sink wants it.
 * Never throws and never waits for a sink.
 */
export async function announce(store: ProjectStore, payload: NotificationPayload): Promise<boolean> {
  const config = configOrLog(store, payload);
  if (!config || sinksFor(config, payload.event).length === 0) return false;
  const env: NodeJS.ProcessEnv = { ...process.env, SPEX_HOME: store.home, SPEX_PROJECT_ROOT: store.root };
  delete env.SPEX_TEST_CRASH_AT;
  try {
    if (await spawnSelfDetached(["internal", "notify", JSON.stringify(payload)], env)) return true;
    logNotify(store.home, { outcome: "failed", event: payload.event, session: payload.session_id, sink: "spawn", detail: "no spex executable to deliver the notification with" });
  } catch (e) {
    logNotify(store.home, { outcome: "failed", event: payload.event, session: payload.session_id, sink: "spawn", detail: (e as Error).message });
  }
  return false;
}

interface NotifiedState {
  /** Event → when it was last delivered (ms since the epoch). */
  last: Record<string, number>;
}

/** The rate limit: true when this session's last notification of this event is older than the interval (and records now). */
async function admitted(store: ProjectStore, payload: NotificationPayload, intervalMs: number, now: number): Promise<boolean> {
  const paths = sessionPaths(store, payload.session_id);
  // A session closed meanwhile has no folder left to keep the state in: let it through.
  if (!existsSync(paths.dir)) return true;
  const file = join(paths.dir, "notified.json");
  return withLock(
    join(store.locksDir, `${payload.session_id}.notify.lock`),
    () => {
      const read = readJsonState<NotifiedState>(file);
      // A file spex did not write as it writes it (null, a list) counts as no notification yet, and is written anew.
      const raw = read.kind === "ok" && read.value ? (read.value as { last?: unknown }).last : undefined;
      const last = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
      const prev = last[payload.event];
      if (typeof prev === "number" && now - prev < intervalMs) return false;
      writeStoreFile(file, JSON.stringify({ last: { ...last, [payload.event]: now } }) + "\n");
      return true;
    },
    { purpose: `notify ${payload.session_id}` },
  );
}

export interface DeliveryReport {
  delivered: string[];
  failed: { sink: string; error: string }[];
  dropped: string | null;
}

/** Deliver one notification to every sink that wants it (the detached process's work). */
export async function deliverNotification(store: ProjectStore, payload: NotificationPayload, now = Date.now()): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: [], failed: [], dropped: null };
  const config = configOrLog(store, payload);
  if (!config) return { ...report, dropped: "the configuration cannot be read" };
  const sinks = sinksFor(config, payload.event);
  if (sinks.length === 0) return report;
  if (!(await admitted(store, payload, config.minIntervalSeconds * 1000, now))) {
    const why = `rate limit: a ${payload.event} notification for this session went out less than ${config.minIntervalSeconds} s ago`;
    logNotify(store.home, { outcome: "dropped", event: payload.event, session: payload.session_id, sink: "all", detail: why });
    return { ...report, dropped: why };
  }
  const cwd = store.root && existsSync(store.root) ? store.root : undefined;
  await Promise.all(
    sinks.map(async (sink) => {
      const name = sinkName(sink);
      try {
        const outcome = await runSink(sink, payload, cwd);
        if (outcome.delivered) report.delivered.push(name);
        else logNotify(store.home, { outcome: "dropped", event: payload.event, session: payload.session_id, sink: name, detail: outcome.why });
      } catch (e) {
        const error = (e as Error).message;
        report.failed.push({ sink: name, error });
        logNotify(store.home, { outcome: "failed", event: payload.event, session: payload.session_id, sink: name, detail: error });
      }
    }),
  );
  return report;
}
