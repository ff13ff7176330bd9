// What a process-table backend answers. Two exist: /proc (Linux) and `ps`
// (macOS, the BSDs, and Linux with SPEX_PROC=ps); lib/proc picks one at run
// time and keeps the rules of identity (which form, which verdict) to itself.
import type { StartForm } from "./identity";

export interface ProcInfo {
  ppid: number;
  pgid: number;
  /** The start identity in this backend's own form. */
  start: string;
}

export interface ProcBackend {
  readonly name: "proc" | "ps";
  /** A live process, or undefined when the pid names none (zombies count as gone). */
  info(pid: number): ProcInfo | undefined;
  /**
   * The same, for what is only shown (list rows): it may answer from one look
   * at every process taken a moment ago (`ps`: one run for a whole listing).
   * Never used to decide a signal.
   */
  infoShown(pid: number): ProcInfo | undefined;
  /** The live process's start in `form`, or undefined when this backend cannot tell that form. */
  startIn(info: ProcInfo, form: StartForm): string | undefined;
  /** This boot's identity, as written beside a start (a boot-relative start is checked against it). */
  boot(): string;
  /** When a boot-relative start began, in ms since the epoch (undefined where ticks cannot be read). */
  ticksToMs(start: string): number | undefined;
  listPids(): number[];
  parentOf(pid: number): number | undefined;
  /** pid, its parent, the parent's parent … up to `max` entries (one look at the table). */
  ancestry(pid: number, max: number): number[];
  argv(pid: number): string[];
  /** Every process's argv in one look. */
  commandLines(): { pid: number; argv: string[] }[];
  /** The program a process runs, or "" where that cannot be read. */
  exe(pid: number): string;
  /** The raw start environment (NUL-separated), or undefined where it cannot be read. */
  environ(pid: number): Buffer | undefined;
}
