// The workspace settings of a project (issue 26): setup and teardown, the
// ignored files copied into each worktree, the port block, the sandbox per
// launcher. Read from the main checkout's spexcode.json and
// spexcode.local.json only: a worktree's own copies come from its base
// branch, which is not trusted to say what runs on this machine.
import { configLayers } from "../config";
import { SpexError } from "../errors";

/** Commands run one after another (shell words, trusted config), or a script in the repository. */
export type Steps = { kind: "commands"; commands: string[] } | { kind: "script"; path: string } | { kind: "none" };

export type SandboxMode = "" | "on" | "no-network";

export interface WorkspaceConfig {
  setup: Steps;
  teardown: Steps;
  setupTimeoutSec: number;
  teardownTimeoutSec: number;
  /** gitignore-style patterns of ignored files to copy from the main checkout (plus .worktreeinclude). */
  include: string[];
  includeMaxFileBytes: number;
  includeMaxTotalBytes: number;
  /** Ports in a session's block; 0 turns ports off. */
  ports: number;
  portRange: { first: number; last: number };
  /** Launcher name → the sandbox it runs in by default. */
  sandbox: Record<string, SandboxMode>;
}

export const DEFAULTS = {
  setupTimeoutSec: 600,
  teardownTimeoutSec: 120,
  includeMaxFileBytes: 10 * 1024 * 1024,
  includeMaxTotalBytes: 50 * 1024 * 1024,
  // Below Linux's ephemeral range (32768-60999), where outgoing connections take their ports.
  portRange: { first: 20000, last: 32767 },
} as const;

function invalid(key: string, what: string): SpexError {
  return new SpexError("config_invalid", `"${key}" in spexcode.json ${what}`, {
    hint: "fix that key in spexcode.json (or spexcode.local.json) of the main checkout; docs/workspace.md lists every key",
    details: { key },
  });
}

function steps(key: string, v: unknown): Steps {
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0) || v === "") return { kind: "none" };
  if (typeof v === "string") {
    if (v.startsWith("/") || v.split("/").includes("..")) throw invalid(key, "names a script outside the repository (give a path relative to its top)");
    return { kind: "script", path: v };
  }
  if (Array.isArray(v) && v.every((c) => typeof c === "string" && c.trim() !== "")) return { kind: "commands", commands: v as string[] };
  throw invalid(key, "must be a list of commands or the path of a script in the repository");
}

function positive(key: string, v: unknown, fallback: number, opts: { zero?: boolean } = {}): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < (opts.zero ? 0 : 1)) throw invalid(key, `must be a whole number${opts.zero ? "" : " above 0"}`);
  return v;
}

function patterns(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((p) => typeof p === "string")) throw invalid("include", "must be a list of patterns (as in .gitignore)");
  return (v as string[]).filter((p) => p.trim() !== "");
}

function range(v: unknown): { first: number; last: number } {
  if (v === undefined || v === null) return { ...DEFAULTS.portRange };
  const m = typeof v === "string" ? /^(\d+)-(\d+)$/.exec(v) : null;
  const first = m ? Number(m[1]) : NaN;
  const last = m ? Number(m[2]) : NaN;
  if (!m || first < 1024 || last > 65535 || first > last) throw invalid("portRange", 'must read "FIRST-LAST" with 1024 <= FIRST <= LAST <= 65535');
  return { first, last };
}

export function sandboxMode(key: string, v: unknown): SandboxMode {
  if (v === undefined || v === null || v === false) return "";
  if (v === true || v === "on") return "on";
  if (v === "no-network") return "no-network";
  throw invalid(key, 'must be true, false or "no-network"');
}

/** The workspace settings of the main checkout at `mainRoot`; `config_invalid` names a bad key. */
export function workspaceConfig(mainRoot: string): WorkspaceConfig {
  const [tracked, local] = configLayers(mainRoot);
  const merged: Record<string, unknown> = { ...tracked, ...local };
  const sandbox: Record<string, SandboxMode> = {};
  for (const layer of [tracked, local]) {
    const launchers = layer!.launchers;
    if (!launchers || typeof launchers !== "object") continue;
    for (const [name, raw] of Object.entries(launchers as Record<string, any>)) {
      if (raw && typeof raw === "object" && "sandbox" in raw) sandbox[name] = sandboxMode(`launchers.${name}.sandbox`, raw.sandbox);
    }
  }
  const ports = positive("ports", merged.ports, 0, { zero: true });
  const portRange = range(merged.portRange);
  if (ports > portRange.last - portRange.first + 1) throw invalid("ports", `asks for ${ports} ports, more than portRange holds`);
  return {
    setup: steps("setup", merged.setup),
    teardown: steps("teardown", merged.teardown),
    setupTimeoutSec: positive("setupTimeoutSec", merged.setupTimeoutSec, DEFAULTS.setupTimeoutSec),
    teardownTimeoutSec: positive("teardownTimeoutSec", merged.teardownTimeoutSec, DEFAULTS.teardownTimeoutSec),
    include: patterns(merged.include),
    includeMaxFileBytes: positive("includeMaxFileBytes", merged.includeMaxFileBytes, DEFAULTS.includeMaxFileBytes),
    includeMaxTotalBytes: positive("includeMaxTotalBytes", merged.includeMaxTotalBytes, DEFAULTS.includeMaxTotalBytes),
    ports,
    portRange,
    sandbox,
  };
}
