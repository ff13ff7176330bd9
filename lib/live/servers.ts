// Which tmux servers `live` scans: the spex socket (SPEX_TMUX, else
// `tmux.socket` of spexcode.json, else `spex`), the user's own server,
// `tmux.sockets` of spexcode.json, and every socket a running spex session
// was put on. SPEX_TMUX_SERVERS replaces the whole list
// (tests point it at isolated sockets so a scan never reaches the user's own
// server). The user's own server is scanned once, as "", whichever name it
// was given.
import { DEFAULT_SOCKET, serverOf, spexSocket } from "../tmux/run";
import type { LiveConfig } from "./config";

/** The token that names the user's default tmux server in SPEX_TMUX_SERVERS. */
export const DEFAULT_SERVER_TOKEN = DEFAULT_SOCKET;

function parseServerList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** No project config: the servers live scans wherever it runs (this module reads no config, so live's early start can load it). */
const NO_CONFIG = { spexSocket: "", sockets: [] };

/**
 * Socket names to scan, deduplicated, in scan order ("" = the user's own
 * server); `recorded` are the sockets spex sessions were put on (any
 * project's `tmux.socket`), so live finds them wherever it is run.
 */
export function liveServers(env: NodeJS.ProcessEnv = process.env, config: Pick<LiveConfig, "spexSocket" | "sockets"> = NO_CONFIG, recorded: string[] = []): string[] {
  const override = env.SPEX_TMUX_SERVERS;
  const list = override !== undefined ? parseServerList(override) : [spexSocket(config.spexSocket, env), "", ...config.sockets, ...recorded];
  return [...new Set(list.map(serverOf))];
}
