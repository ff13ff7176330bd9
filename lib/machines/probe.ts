// What `machine ls` and `machine install` learn about a machine in one call:
// OS and architecture (uname), load, cores, and the spex there (path and
// `spex version --json`), printed as `key=value` lines by a small POSIX script.
import { BUILD_COMMIT, BUILD_DATE, VERSION } from "../version";
import { SpexError } from "../errors";
import type { Machine } from "./list";
import { REMOTE_SPEX } from "./remote";
import { oneLineOf, runSsh } from "./ssh";

export interface SpexVersion {
  version: string;
  commit: string;
  built: string;
}

export interface MachineFacts {
  os: string;
  arch: string;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  cpus: number | null;
  /** The spex ssh calls reach there, null when none. */
  spex: (SpexVersion & { path: string }) | null;
  /** How long the probe took, connection included (ms). */
  latencyMs: number;
}

const PROBE = [
  `printf 'os=%s\\n' "$(uname -s)"`,
  `printf 'arch=%s\\n' "$(uname -m)"`,
  `printf 'load=%s\\n' "$(cat /proc/loadavg 2>/dev/null || sysctl -n vm.loadavg 2>/dev/null)"`,
  `printf 'cpus=%s\\n' "$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null)"`,
  `s="${REMOTE_SPEX}"; [ -x "$s" ] || s=$(command -v spex 2>/dev/null) || s=""`,
  `if [ -n "$s" ]; then printf 'spex=%s\\n' "$s"; printf 'version=%s\\n' "$("$s" version --json 2>/dev/null | tr -d '\\n')"; fi`,
].join("; ");

export function thisVersion(): SpexVersion {
  return { version: VERSION, commit: BUILD_COMMIT, built: BUILD_DATE };
}

export function sameVersion(a: SpexVersion | null, b: SpexVersion): boolean {
  return !!a && a.version === b.version && a.commit === b.commit && a.built === b.built;
}

function numberOr(text: string | undefined): number | null {
  const n = Number(text);
  return text !== undefined && text !== "" && Number.isFinite(n) ? n : null;
}

/** The probe's `key=value` lines as facts (pure, for the tests). */
export function parseProbe(text: string, latencyMs: number): MachineFacts {
  const kv = new Map<string, string>();
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) kv.set(line.slice(0, eq), line.slice(eq + 1).trim());
  }
  // /proc/loadavg: "0.52 0.40 0.31 1/123 456"; BSD sysctl: "{ 0.52 0.40 0.31 }".
  const loads = (kv.get("load") ?? "").replace(/[{}]/g, " ").trim().split(/\s+/);
  let spex: MachineFacts["spex"] = null;
  const path = kv.get("spex");
  if (path) {
    let v: Partial<SpexVersion> = {};
    try {
      v = JSON.parse(kv.get("version") ?? "") as Partial<SpexVersion>;
    } catch {
      // An older spex without `version --json`: present, version unknown.
    }
    spex = { path, version: String(v.version ?? "unknown"), commit: String(v.commit ?? "unknown"), built: String(v.built ?? "unknown") };
  }
  return {
    os: kv.get("os") ?? "",
    arch: kv.get("arch") ?? "",
    load1: numberOr(loads[0]),
    load5: numberOr(loads[1]),
    load15: numberOr(loads[2]),
    cpus: numberOr(kv.get("cpus")),
    spex,
    latencyMs,
  };
}

export async function probeMachine(machine: Machine): Promise<MachineFacts> {
  const started = performance.now();
  const r = await runSsh(machine, PROBE, { timeoutMs: 30000 });
  if (r.code !== 0) throw new SpexError("machine_unreachable", `machine ${machine.name} could not be probed: ${oneLineOf(r.stderr) || `exit ${r.code}`}`, { details: { machine: machine.name } });
  return parseProbe(r.stdout.toString("utf8"), Math.round(performance.now() - started));
}

/** uname's names for this process's platform and architecture (several spellings for one arch). */
export function localPlatform(): { os: string; arches: string[] } {
  const os = { linux: "Linux", darwin: "Darwin", freebsd: "FreeBSD", openbsd: "OpenBSD", win32: "Windows" }[process.platform as string] ?? process.platform;
  const arches = ({ x64: ["x86_64", "amd64"], arm64: ["aarch64", "arm64"], arm: ["armv7l", "armv6l", "arm"], ia32: ["i686", "i386"] } as Record<string, string[]>)[process.arch] ?? [process.arch];
  return { os, arches };
}

export function samePlatform(facts: Pick<MachineFacts, "os" | "arch">): boolean {
  const here = localPlatform();
  return facts.os === here.os && here.arches.includes(facts.arch);
}
