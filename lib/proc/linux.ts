// The /proc backend (Linux, the default there): every fact is a file read, no
// process is started. Start identities are clock ticks since boot, named
// together with the kernel's boot id.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { type ProcBackend, type ProcInfo } from "./backend";
import { type StartForm, epochStart } from "./identity";

/** Clock ticks per second of /proc/<pid>/stat start times (USER_HZ: 100 on every Linux ABI spex runs on). */
const TICKS_PER_SECOND = 100;

interface StatFields {
  state: string;
  ppid: number;
  pgid: number;
  start: string;
}

function readStat(pid: number): StatFields | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: rest[0] ?? "", ppid: Number(rest[1]), pgid: Number(rest[2]), start: rest[19] ?? "" };
}

/** Boot time in whole seconds since the epoch, read fresh: it moves when the clock is stepped, as `ps` sees it. */
function btime(): number | undefined {
  try {
    const line = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

let cachedBoot: string | undefined;

export const linuxBackend: ProcBackend = {
  name: "proc",

  info(pid: number): ProcInfo | undefined {
    const stat = readStat(pid);
    if (!stat || stat.state === "Z" || stat.state === "X") return undefined;
    return { ppid: stat.ppid, pgid: stat.pgid, start: stat.start };
  },

  infoShown(pid: number): ProcInfo | undefined {
    return linuxBackend.info(pid);
  },

  // The absolute form is what procps's `ps -o lstart` prints: btime + whole seconds of ticks.
  startIn(info: ProcInfo, form: StartForm): string | undefined {
    if (form === "ticks") return info.start;
    const boot = btime();
    return boot === undefined ? undefined : epochStart(boot + Math.floor(Number(info.start) / TICKS_PER_SECOND));
  },

  boot(): string {
    if (cachedBoot === undefined) {
      try {
        cachedBoot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      } catch {
        cachedBoot = "unknown-boot";
      }
    }
    return cachedBoot;
  },

  ticksToMs(start: string): number | undefined {
    const boot = btime();
    return boot === undefined ? undefined : boot * 1000 + (Number(start) * 1000) / TICKS_PER_SECOND;
  },

  listPids(): number[] {
    const pids: number[] = [];
    for (const name of readdirSync("/proc")) {
      const pid = Number(name);
      if (Number.isInteger(pid) && pid > 0) pids.push(pid);
    }
    return pids;
  },

  parentOf(pid: number): number | undefined {
    return readStat(pid)?.ppid;
  },

  ancestry(pid: number, max: number): number[] {
    const out: number[] = [];
    for (let p: number | undefined = pid; p !== undefined && p > 0 && out.length < max; p = readStat(p)?.ppid) out.push(p);
    return out;
  },

  argv(pid: number): string[] {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
    } catch {
      return [];
    }
  },

  commandLines(): { pid: number; argv: string[] }[] {
    return linuxBackend.listPids().map((pid) => ({ pid, argv: linuxBackend.argv(pid) }));
  },

  exe(pid: number): string {
    try {
      return readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, "");
    } catch {
      return "";
    }
  },

  environ(pid: number): Buffer | undefined {
    try {
      return readFileSync(`/proc/${pid}/environ`);
    } catch {
      return undefined;
    }
  },
};
