// The two written forms of a process's start identity, and what each backend
// may conclude from one (docs/records.md, "Process identity"):
// - boot-relative: decimal clock ticks since boot (/proc/<pid>/stat field 22);
//   it names a process only together with the boot id, so it is compared only
//   by a backend that can read the boot id;
// - absolute: `@` + the start time in whole seconds since the epoch (what
//   `ps -o lstart` prints, in UTC); it outlives a reboot by itself.
// The forms never equal each other as text, so one is never taken for the other.

export type StartForm = "ticks" | "epoch";

/** Which form a recorded start is in, or undefined for anything else ("" included). */
export function startForm(start: string): StartForm | undefined {
  if (/^\d+$/.test(start)) return "ticks";
  if (/^@\d+$/.test(start)) return "epoch";
  return undefined;
}

export function epochStart(seconds: number): string {
  return `@${seconds}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Seconds since the epoch of a `ps -o lstart` date printed in the C locale
 * and UTC ("Tue Dec  1 05:52:51 2026"), or undefined when it is not one.
 * The launch script's record-pid.sh does the same sum in sh.
 */
export function lstartSeconds(text: string): number | undefined {
  const m = /^\s*[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})\s*$/.exec(text);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[1]!);
  if (month < 0) return undefined;
  return Date.UTC(Number(m[6]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) / 1000;
}

/** What a comparison of a live process with a recorded identity proved. */
export type Verdict = "same" | "other" | "unknown";
