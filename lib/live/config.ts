// What `live` and `bulk` take from the project config (spexcode.json of the
// checkout the caller stands in): the spex socket, extra tmux sockets and the
// bulk defaults. Outside any checkout, or with no config file, the built-in
// defaults apply. live is machine-wide: a config it cannot read is a warning
// to show, never a reason to leave the caller without an answer.
import { type SpexConfig, loadConfig } from "../config";
import { asSpexError } from "../cli/output";
import { resolveMainRoot } from "../git/main-root";

export type BulkDefaults = SpexConfig["bulk"];

export const BUILTIN_BULK_DEFAULTS: BulkDefaults = { maxActiveAgents: 12, maxLoad1: null, maxLoadPerCore: 1.5, concurrency: 2, jitterMs: 0 };

export interface LiveConfig {
  /** `tmux.socket`: where this project's sessions go ("" = not set). */
  spexSocket: string;
  /** `tmux.sockets`: extra servers to scan. */
  sockets: string[];
  bulk: BulkDefaults;
  /** Why the config was not used (the defaults were), for the caller to show. */
  warning: string | null;
}

const DEFAULTS: LiveConfig = { spexSocket: "", sockets: [], bulk: BUILTIN_BULK_DEFAULTS, warning: null };

export function liveConfig(cwd = process.cwd()): LiveConfig {
  try {
    const root = process.env.SPEX_PROJECT_ROOT || resolveMainRoot(cwd);
    if (!root) return DEFAULTS;
    const config = loadConfig(root);
    return { spexSocket: config.tmuxSocket, sockets: config.tmuxSockets, bulk: config.bulk, warning: null };
  } catch (e) {
    return { ...DEFAULTS, warning: `${asSpexError(e).message}; using the defaults` };
  }
}
