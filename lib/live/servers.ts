// Which tmux servers `live` scans: the spex socket (SPEX_TMUX, else
// `tmux.socket` of spexcode.json, else `spex`), the user's own server, and
// `tmux.sockets` of spexcode.json. SPEX_TMUX_SERVERS replaces the whole list
// (tests point it at isolated sockets so a scan never reaches the user's own
// server). The user's own server is scanned once, as "", whichever name it
// was given.
import { DEFAULT_SOCKET, serverOf, spexSocket } from "../tmux";
import { type LiveConfig, liveConfig } from "./config";

/** The token that names the user's default tmux server in SPEX_TMUX_SERVERS. */
export const DEFAULT_SERVER_TOKEN = DEFAULT_SOCKET;

function parseServerList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Socket names to scan, deduplicated, in scan order ("" = the user's own server). */
export function liveServers(env: NodeJS.ProcessEnv = process.env, config: Pick<LiveConfig, "spexSocket" | "sockets"> = liveConfig()): string[] {
  const override = env.SPEX_TMUX_SERVERS;
  const list = override !== undefined ? parseServerList(override) : [spexSocket(config.spexSocket, env), "", ...config.sockets];
  return [...new Set(list.map(serverOf))];
}
