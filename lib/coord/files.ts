// Where coordination state lives and how it lands on disk: one JSON file per
// list under `<project>/coord/`, replaced atomically and fsynced with its folder
// so a crash leaves the old list or the new one, never a torn one.
import { join } from "node:path";
import { SpexError } from "../errors";
import { readJsonState, writeJsonDurably } from "../record";
import { type ProjectStore, listSessionIds } from "../store";

export interface CoordPaths {
  dir: string;
  tasks: string;
  reservations: string;
  tasksLock: string;
  reservationsLock: string;
}

export function coordPaths(store: ProjectStore): CoordPaths {
  const dir = join(store.dir, "coord");
  return {
    dir,
    tasks: join(dir, "tasks.json"),
    reservations: join(dir, "reservations.json"),
    tasksLock: join(store.locksDir, "coord-tasks.lock"),
    reservationsLock: join(store.locksDir, "coord-reservations.lock"),
  };
}

/** The parsed file, or undefined when it does not exist; an unparseable file is refused, never guessed at. */
export function readCoordFile(file: string): unknown {
  const r = readJsonState(file);
  if (r.kind === "corrupt") {
    throw new SpexError("coord_corrupt", `${file} cannot be parsed: ${r.error}`, {
      hint: "inspect the file; move it aside to start an empty list",
      details: { file },
    });
  }
  return r.kind === "ok" ? r.value : undefined;
}

export function writeCoordFile(file: string, value: unknown): void {
  writeJsonDurably(file, value);
}

/**
 * Which sessions still have a record. A closed session's folder is gone, so
 * its claims and leases stop counting without any hook into close.
 */
export function presentSessions(store: ProjectStore): Set<string> {
  return new Set(listSessionIds(store));
}
