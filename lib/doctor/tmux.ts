// Which tmux sessions on the spex socket belong to this project. The socket
// may be shared (SPEX_TMUX=default, or one name for several repositories):
// another project's live sessions, or the user's own, are not our orphans.
import { processEnviron } from "../proc";
import type { ProjectStore } from "../store";
import { SPEX_HOME_OPTION, SPEX_PROJECT_OPTION, spexSocket, tmuxSync } from "../tmux";

const SEP = "\t";

/**
 * Sessions spex opened for this project (its main checkout and SPEX_HOME): by
 * the tmux options set at creation, or, for a session opened before those
 * existed, by the environment its launch script gave the pane's process.
 */
export function projectTmuxSessions(store: ProjectStore, socket = spexSocket()): string[] {
  const format = ["#{session_name}", `#{${SPEX_PROJECT_OPTION}}`, `#{${SPEX_HOME_OPTION}}`, "#{pane_pid}"].join(SEP);
  const listed = tmuxSync(socket, ["list-sessions", "-F", format]);
  if (listed.code !== 0) return [];
  const ours: string[] = [];
  for (const line of listed.stdout.split("\n")) {
    const [name, project, home, panePid] = line.split(SEP);
    if (!name) continue;
    if (project || home) {
      if (project === store.root && home === store.home) ours.push(name);
      continue;
    }
    const env = processEnviron(Number(panePid));
    if (env?.get("SPEX_PROJECT_ROOT") === store.root && env.get("SPEX_HOME") === store.home) ours.push(name);
  }
  return ours;
}
