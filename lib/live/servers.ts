// Which tmux servers `live` scans. The spex socket and the user's default
// server, plus any listed in config; SPEX_TMUX_SERVERS replaces the whole list
// (tests point it at isolated sockets so a scan never reaches the user's own
// server).

import { spexSocket } from "../tmux";
import { configSockets } from "./config";

/** The token that names the user's default tmux server in SPEX_TMUX_SERVERS. */
export const DEFAULT_SERVER_TOKEN = "default";

/** Extra sockets from the project config (`tmux.sockets` in spexcode.json): the one place to extend. */
export function configuredSockets(): string[] {
  return configSockets();
}

function parseServerList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s === DEFAULT_SERVER_TOKEN ? "" : s));
}

/** Socket names to scan, deduplicated, in scan order ("" = default server). */
export function liveServers(env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env.SPEX_TMUX_SERVERS;
  const list = override !== undefined ? parseServerList(override) : [env.SPEX_TMUX || spexSocket(), "", ...configuredSockets()];
  return [...new Set(list)];
}
