// Wait cursors: per (watched session, caller identity) the last timeline
// sequence the caller has consumed, so the next wait resumes exactly there.
import type { ProjectStore } from "../store";
import { readJsonFile, writeJsonDurably } from "./files";
import { cursorFile } from "./paths";

export function readCursor(store: ProjectStore, target: string, key: string): number | undefined {
  const c = readJsonFile<{ seq?: unknown }>(cursorFile(store, target, key));
  return c && c !== "corrupt" && typeof c.seq === "number" ? c.seq : undefined;
}

export function writeCursor(store: ProjectStore, target: string, key: string, seq: number): void {
  writeJsonDurably(cursorFile(store, target, key), { key, seq, at: new Date().toISOString() });
}

/** Move a cursor forward only (a send moves its sender's cursor past the message it just queued). */
export function advanceCursor(store: ProjectStore, target: string, key: string, seq: number): void {
  const now = readCursor(store, target, key);
  if (now === undefined || now < seq) writeCursor(store, target, key, seq);
}
