// "Is this live pid the process that was recorded?", asked of one backend.
// Both backends answer through this one function, so they agree on what the
// same process is (lib/proc/identity.ts has the two forms of a start).
import type { ProcBackend } from "./backend";
import { type Verdict, startForm } from "./identity";

/**
 * - `dead`: the pid names no live process;
 * - `same`: proved the recorded process;
 * - `other`: proved another one (another start, or ticks from another boot);
 * - `unknown`: alive, but this backend cannot compare that form (ticks under
 *   `ps`), or no start was recorded.
 */
export function judge(backend: ProcBackend, pid: number, start: string, boot: string | undefined, look: "exact" | "shown" = "exact"): Verdict | "dead" {
  const info = look === "shown" ? backend.infoShown(pid) : backend.info(pid);
  if (!info) return "dead";
  const form = startForm(start);
  if (!form) return "unknown";
  const now = backend.startIn(info, form);
  if (now === undefined) return "unknown";
  // A tick count names a process only within its boot; an absolute start needs no boot beside it.
  if (form === "ticks" && boot !== undefined && boot !== backend.boot()) return "other";
  return now === start ? "same" : "other";
}
