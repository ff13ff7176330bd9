// Stale readiness fences: a launch whose `new` or `resume` died while it waited
// leaves the fence up. Once its pane is gone (or dead) and the readiness
// timeout has passed, nothing can prove readiness any more: the original comes
// back, and (as for any failed launch) no lifecycle event is emitted.
import { readSession } from "../record";
import { type ListRow, listRows } from "../sessions/rows";
import type { ProjectStore } from "../store";
import { exactSession, tmuxSync } from "../tmux";
import { restoreOriginal } from "./fence";
import { readinessTimeout } from "./start";

function paneAlive(socket: string, name: string): boolean {
  const r = tmuxSync(socket, ["list-panes", "-s", "-t", exactSession(name), "-F", "#{pane_dead}"]);
  return r.code === 0 && r.stdout.split("\n").some((l) => l.trim() === "0");
}

/** Restore the originals of the given fenced sessions whose launch can no longer succeed; returns their ids. */
export async function recoverStaleFences(store: ProjectStore, ids: string[], now = Date.now()): Promise<string[]> {
  const restored: string[] = [];
  for (const id of ids) {
    const reading = readSession(store, id);
    if (reading.kind !== "ok" || !reading.pending) continue;
    const { record } = reading;
    if (now - Date.parse(record.updatedAt) < readinessTimeout()) continue;
    if (record.tmux_session && paneAlive(record.tmux_socket, record.tmux_session)) continue;
    if (await restoreOriginal(store, id)) restored.push(id);
  }
  return restored;
}

/**
 * The project's list rows, with stale fences settled first: only rows still
 * `starting` are looked at, so the common listing costs nothing extra.
 */
export async function listRowsSettled(store: ProjectStore): Promise<ListRow[]> {
  const rows = listRows(store);
  const starting = rows.filter((r) => r.display === "starting").map((r) => r.id);
  if (starting.length === 0) return rows;
  const restored = await recoverStaleFences(store, starting);
  return restored.length > 0 ? listRows(store) : rows;
}
