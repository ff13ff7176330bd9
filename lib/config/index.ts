// Project configuration: `spexcode.json` (tracked) overlaid by
// `spexcode.local.json` (machine-local, untracked), both at the main root.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
// The names alone: the adapters (and what they load) are for a launch, not for reading the config.
import { HARNESS_NAMES, type HarnessName, isHarnessName } from "../harness/types";

export interface LauncherConfig {
  harness: HarnessName;
  command: string;
}

export interface SpexConfig {
  launchers: Record<string, LauncherConfig>;
  defaultLauncher: string;
  branchPrefix: string;
  /** Absolute folder holding session worktrees. */
  worktreeRoot: string;
  /** The source-of-truth branch; "" means auto-detect. */
  mainBranch: string;
  maxActive: number;
  /** An agent at rest (idle, awaiting review) gives its launch slot to the queue. */
  idleFreesSlot: boolean;
  /** Where new sessions go (`tmux.socket`; "default" = the user's own server); "" = spex's own socket. */
  tmuxSocket: string;
  /** Extra tmux sockets `live` scans besides the spex socket and the default server. */
  tmuxSockets: string[];
  bulk: { maxActiveAgents: number; maxLoad1: number | null; maxLoadPerCore: number; concurrency: number; jitterMs: number };
}

export const CONFIG_FILE = "spexcode.json";
export const LOCAL_CONFIG_FILE = "spexcode.local.json";

function readJson(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return {};
    throw e;
  }
  try {
    const v = JSON.parse(text);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
    throw new Error("not a JSON object");
  } catch (e) {
    throw new SpexError("config_invalid", `${file} cannot be read: ${(e as Error).message}`, {
      hint: "fix the JSON in that file",
    });
  }
}

/**
 * The raw layers of the project's configuration, lowest first: the tracked
 * spexcode.json, then spexcode.local.json. For sections other modules read
 * for themselves (lib/attention: notify, prices, budgets).
 */
export function configLayers(mainRoot: string): Record<string, unknown>[] {
  return [readJson(join(mainRoot, CONFIG_FILE)), readJson(join(mainRoot, LOCAL_CONFIG_FILE))];
}

/** The user's own configuration, `$SPEX_HOME/config.json` (the same sections, for every project). */
export function userConfig(home: string): Record<string, unknown> {
  return readJson(join(home, "config.json"));
}

export function builtinLaunchers(): Record<string, LauncherConfig> {
  const out: Record<string, LauncherConfig> = {};
  // Lazy import order: harness adapters carry the default commands.
  for (const name of HARNESS_NAMES) out[name] = { harness: name, command: "" };
  return out;
}

function num(v: unknown, fallback: number | null): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

export function loadConfig(mainRoot: string): SpexConfig {
  const tracked = readJson(join(mainRoot, CONFIG_FILE));
  const local = readJson(join(mainRoot, LOCAL_CONFIG_FILE));
  const merged: Record<string, any> = { ...tracked, ...local };
  const launchers = builtinLaunchers();
  for (const source of [tracked.launchers, local.launchers]) {
    if (!source || typeof source !== "object") continue;
    for (const [name, raw] of Object.entries(source as Record<string, any>)) {
      const harness = String(raw?.harness ?? name);
      if (!isHarnessName(harness)) {
        throw new SpexError("config_invalid", `launcher "${name}" names an unknown harness "${harness}"`, {
          hint: `use one of ${HARNESS_NAMES.join(", ")}`,
        });
      }
      launchers[name] = { harness, command: typeof raw?.command === "string" ? raw.command : "" };
    }
  }
  const sessions = (merged.sessions ?? {}) as Record<string, unknown>;
  const tmux = (merged.tmux ?? {}) as Record<string, unknown>;
  const bulk = (merged.bulk ?? {}) as Record<string, unknown>;
  const root = typeof merged.worktreeRoot === "string" && merged.worktreeRoot ? merged.worktreeRoot : ".worktrees";
  return {
    launchers,
    defaultLauncher: typeof merged.defaultLauncher === "string" ? merged.defaultLauncher : "claude",
    branchPrefix: typeof merged.branchPrefix === "string" ? merged.branchPrefix : "spex/",
    worktreeRoot: root.startsWith("/") ? root : join(mainRoot, root),
    mainBranch: typeof merged.mainBranch === "string" ? merged.mainBranch : "",
    maxActive: num(sessions.maxActive, 8) ?? 8,
    idleFreesSlot: sessions.idleFreesSlot === true,
    tmuxSocket: typeof tmux.socket === "string" ? tmux.socket : "",
    tmuxSockets: Array.isArray(tmux.sockets) ? tmux.sockets.filter((s): s is string => typeof s === "string") : [],
    bulk: {
      maxActiveAgents: num(bulk.maxActiveAgents, 12) ?? 12,
      maxLoad1: num(bulk.maxLoad1, null),
      maxLoadPerCore: num(bulk.maxLoadPerCore, 1.5) ?? 1.5,
      concurrency: num(bulk.concurrency, 2) ?? 2,
      jitterMs: num(bulk.jitterMs, 0) ?? 0,
    },
  };
}
