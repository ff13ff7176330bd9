// Stale readiness fences in listings: rows still `starting` are handed to
// settleFence (settle.ts) before they are shown.
import { readSession } from "../record";
import { type ListRow, listRows } from "../sessions/rows";
import type { ProjectStore } from "../store";

/** Settle the given fenced sessions; returns the ids that were settled (here or by a racing reader). */
export async function recoverStaleFences(store: ProjectStore, ids: string[], now = Date.now()): Promise<string[]> {
  const settled: string[] = [];
  // Loaded here: settling brings the launch machinery, and most listings have nothing to settle.
  const { settleFence } = await import(/* webpackMode: "eager" */ "./settle");
  for (const id of ids) {
    if (await settleFence(store, id, now)) settled.push(id);
    else if (!fenced(store, id)) settled.push(id); // a reader running beside this one settled it between our reads
  }
  return settled;
}

function fenced(store: ProjectStore, id: string): boolean {
  const r = readSession(store, id);
  return r.kind === "ok" && r.pending !== null;
}

/**
 * The project's list rows, with stale fences settled first: only rows still
 * `starting` are looked at, so the common listing costs nothing extra.
 */
export async function listRowsSettled(store: ProjectStore): Promise<ListRow[]> {
  const rows = listRows(store);
  const starting = rows.filter((r) => r.display === "starting").map((r) => r.id);
  if (starting.length === 0) return rows;
  const settled = await recoverStaleFences(store, starting);
  return settled.length > 0 ? listRows(store) : rows;
}
