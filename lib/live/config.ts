// What `live` and `bulk` take from the project config (spexcode.json of the
// checkout the caller stands in): extra tmux sockets and the bulk defaults.
// Outside any checkout, or with no config file, the built-in defaults apply.
import { type SpexConfig, loadConfig } from "../config";
import { resolveMainRoot } from "../git/main-root";

export type BulkDefaults = SpexConfig["bulk"];

export const BUILTIN_BULK_DEFAULTS: BulkDefaults = { maxActiveAgents: null, maxLoad1: null, maxLoadPerCore: 1.5, concurrency: 2, jitterMs: 0 };

function callerConfig(cwd: string): SpexConfig | undefined {
  const root = process.env.SPEX_PROJECT_ROOT || resolveMainRoot(cwd);
  return root ? loadConfig(root) : undefined;
}

export function configSockets(cwd = process.cwd()): string[] {
  return callerConfig(cwd)?.tmuxSockets ?? [];
}

export function bulkDefaults(cwd = process.cwd()): BulkDefaults {
  return callerConfig(cwd)?.bulk ?? BUILTIN_BULK_DEFAULTS;
}
