// Which process-table backend this process uses, chosen once at run time:
// SPEX_PROC=ps, or no /proc, selects `ps`; otherwise /proc.
import { existsSync } from "node:fs";
import type { ProcBackend } from "./backend";
import { linuxBackend } from "./linux";
import { psBackend } from "./ps";

let chosen: ProcBackend | undefined;

export function procBackend(): ProcBackend {
  chosen ??= process.env.SPEX_PROC === "ps" || !existsSync("/proc/self/stat") ? psBackend : linuxBackend;
  return chosen;
}
