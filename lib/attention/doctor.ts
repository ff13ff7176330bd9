// `spex doctor`'s notification check: the sinks configured, and the
// deliveries that failed in the last day (from notify.log), so a webhook
// that stopped answering is seen rather than silently lost.
import { loadAttentionConfig } from "./config";
import { readNotifyLog } from "./log";
import { sinkName } from "./sinks";

export interface AttentionCheck {
  name: string;
  ok: boolean;
  required: boolean;
  detail: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function notifyCheck(home: string, mainRoot: string | undefined, now = Date.now()): AttentionCheck {
  const name = "notifications";
  let sinks: string[];
  try {
    sinks = loadAttentionConfig(home, mainRoot).sinks.map(sinkName);
  } catch (e) {
    return { name, ok: false, required: false, detail: (e as Error).message };
  }
  const failures = readNotifyLog(home).filter((l) => l.outcome === "failed" && now - Date.parse(l.at) < DAY_MS);
  const configured = sinks.length === 0 ? "none configured (see docs/attention.md)" : sinks.join(", ");
  if (failures.length === 0) return { name, ok: true, required: false, detail: configured };
  const last = failures[failures.length - 1]!;
  return {
    name,
    ok: false,
    required: false,
    detail: `${configured}; ${failures.length} failed in the last 24 h, the last at ${last.at}: ${last.sink}: ${last.detail} (all of them in ${home}/notify.log)`,
  };
}
