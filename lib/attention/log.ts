// The notification log, `$SPEX_HOME/notify.log`: one line per sink run that
// failed or was dropped, so a webhook that has been refusing for a week is
// seen (`spex doctor`), not silently lost. Bounded: past LOG_MAX it starts
// over, keeping the previous file as notify.log.1.
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "../errors";

const LOG_MAX = 256 * 1024;

export interface NotifyLogLine {
  at: string;
  outcome: "failed" | "dropped";
  event: string;
  session: string;
  sink: string;
  detail: string;
}

export function notifyLogFile(home: string): string {
  return join(home, "notify.log");
}

/** Append one line (JSON); never throws: a log that cannot be written must not break a notification. */
export function logNotify(home: string, line: Omit<NotifyLogLine, "at">): void {
  const file = notifyLogFile(home);
  try {
    mkdirSync(home, { recursive: true });
    try {
      if (statSync(file).size > LOG_MAX) renameSync(file, `${file}.1`);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
    appendFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...line }) + "\n", { mode: 0o600 });
  } catch {
    // nowhere left to report
  }
}

/** The log's lines (its last LOG_MAX bytes), oldest first; torn lines are skipped. */
export function readNotifyLog(home: string): NotifyLogLine[] {
  let fd: number;
  try {
    fd = openSync(notifyLogFile(home), "r");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, LOG_MAX);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const out: NotifyLogLine[] = [];
    for (const text of buf.toString("utf8").split("\n")) {
      try {
        const l = JSON.parse(text) as NotifyLogLine;
        if (typeof l?.at === "string" && typeof l.outcome === "string") out.push(l);
      } catch {
        // torn or partial first line
      }
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
