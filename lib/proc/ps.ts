// The portable backend: `ps` (POSIX options only, so macOS, the BSDs and
// Linux print the same columns) and the kernel's boot time. Start identities
// are absolute: whole seconds since the epoch of the start `ps -o lstart`
// prints, read in the C locale and UTC so every reader gets the same text.
// A start that is ticks since boot cannot be checked here (no boot id to pair
// it with): the caller treats it as unknown, never as another process.
import { childProcess } from "./child-process";
import { readFileSync } from "node:fs";
import { SpexError, errnoCode } from "../errors";
import { type ProcBackend, type ProcInfo } from "./backend";
import { pidExists } from "./exists";
import { type StartForm, epochStart, lstartSeconds } from "./identity";

let psEnv: NodeJS.ProcessEnv | undefined;

/** stdout of a `ps` or `sysctl` run; "" when it names nothing. Failing to run it at all is an error, never "no process". */
function run(cmd: string, args: string[]): string {
  psEnv ??= { ...process.env, LC_ALL: "C", TZ: "UTC0" };
  const r = childProcess().spawnSync(cmd, args, { env: psEnv, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  if (r.error) {
    throw new SpexError("proc_unavailable", `cannot read the process table: \`${cmd}\` could not be run (${errnoCode(r.error) ?? r.error.message})`, {
      hint: "install ps (procps on Linux), or on Linux unset SPEX_PROC so /proc is read instead",
      details: { command: cmd },
    });
  }
  return r.stdout ?? "";
}

function table(columns: string[]): string[][] {
  const args = ["-A"];
  for (const c of columns) args.push("-o", `${c}=`);
  return run("ps", args)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => line.split(/\s+/));
}

function bootSeconds(): number | undefined {
  // Linux standing in for sysctl: /proc/stat's btime is what `ps` itself adds ticks to.
  try {
    const line = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    if (line) return Number(line[1]);
  } catch {
    // not Linux
  }
  const sec = /sec\s*=\s*(\d+)/.exec(run("sysctl", ["-n", "kern.boottime"]));
  return sec ? Number(sec[1]) : undefined;
}

let cachedBoot: string | undefined;

/** One row of `ps -o stat= -o ppid= -o pgid= -o lstart=`: the process, or undefined for a zombie or a line this code cannot read. */
function parseRow(stat: string, ppid: string, pgid: string, lstart: string): ProcInfo | undefined {
  if (stat.startsWith("Z")) return undefined;
  const seconds = lstartSeconds(lstart);
  // An lstart this code cannot read leaves the start unknown: nothing is ever proved by it.
  return { ppid: Number(ppid), pgid: Number(pgid), start: seconds === undefined ? "" : epochStart(seconds) };
}

/** How long one table answers shown looks: 250 ms, or SPEX_PS_TABLE_MS (a test holds it open). */
function shownForMs(): number {
  const ms = Number(process.env.SPEX_PS_TABLE_MS);
  return Number.isFinite(ms) && ms >= 0 && process.env.SPEX_PS_TABLE_MS !== "" ? ms : 250;
}
let shown: { at: number; table: Map<number, ProcInfo> } | undefined;

/** Every process in one `ps` run, reused for shownForMs(): a listing of 50 sessions starts one `ps`, not 50. */
function shownTable(): Map<number, ProcInfo> {
  if (shown && Date.now() - shown.at < shownForMs()) return shown.table;
  const table = new Map<number, ProcInfo>();
  for (const line of run("ps", ["-A", "-o", "pid=", "-o", "stat=", "-o", "ppid=", "-o", "pgid=", "-o", "lstart="]).split("\n")) {
    const m = /^\s*(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(.+?)\s*$/.exec(line);
    const info = m && parseRow(m[2]!, m[3]!, m[4]!, m[5]!);
    if (info) table.set(Number(m![1]), info);
  }
  shown = { at: Date.now(), table };
  return table;
}

export const psBackend: ProcBackend = {
  name: "ps",

  info(pid: number): ProcInfo | undefined {
    if (!pidExists(pid)) return undefined;
    const line = run("ps", ["-o", "stat=", "-o", "ppid=", "-o", "pgid=", "-o", "lstart=", "-p", String(pid)]).split("\n")[0] ?? "";
    const m = /^\s*(\S+)\s+(\d+)\s+(\d+)\s+(.+?)\s*$/.exec(line);
    return m ? parseRow(m[1]!, m[2]!, m[3]!, m[4]!) : undefined;
  },

  // The table may be a moment old: a pid gone since reads dead (kill -0 starts nothing), so a row
  // never shows alive an agent its own death check finds dead; one started since is looked up alone.
  infoShown(pid: number): ProcInfo | undefined {
    if (!pidExists(pid)) return undefined;
    return shownTable().get(pid) ?? psBackend.info(pid);
  },

  startIn(info: ProcInfo, form: StartForm): string | undefined {
    return form === "epoch" && info.start !== "" ? info.start : undefined;
  },

  boot(): string {
    if (cachedBoot === undefined) {
      const seconds = bootSeconds();
      cachedBoot = seconds === undefined ? "unknown-boot" : `boot@${seconds}`;
    }
    return cachedBoot;
  },

  ticksToMs(): number | undefined {
    return undefined;
  },

  listPids(): number[] {
    return table(["pid"]).map((row) => Number(row[0]));
  },

  parentOf(pid: number): number | undefined {
    return psBackend.info(pid)?.ppid;
  },

  ancestry(pid: number, max: number): number[] {
    const parent = new Map(table(["pid", "ppid"]).map((row) => [Number(row[0]), Number(row[1])]));
    const out: number[] = [];
    for (let p: number | undefined = pid; p !== undefined && p > 0 && out.length < max; p = parent.get(p)) out.push(p);
    return out;
  },

  // `ps` prints argv joined by spaces: words are the best it can give back.
  argv(pid: number): string[] {
    if (!pidExists(pid)) return [];
    return run("ps", ["-o", "args=", "-p", String(pid)]).trim().split(/\s+/).filter((w) => w !== "");
  },

  commandLines(): { pid: number; argv: string[] }[] {
    return table(["pid", "args"]).map((row) => ({ pid: Number(row[0]), argv: row.slice(1) }));
  },

  exe(): string {
    return "";
  },

  environ(): Buffer | undefined {
    return undefined;
  },
};
