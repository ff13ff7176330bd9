// Small durable-file helpers for comms state (queue entries, watchers, cursors):
// atomic replace with fsync of the folder, and reads where absence is a value.
import { writeStoreFile } from "../nofollow";

export { writeJsonDurably } from "../record";
import { readJsonState } from "../record";

/** The parsed file, undefined when it does not exist, `corrupt` when it cannot be parsed. */
export function readJsonFile<T>(file: string): T | undefined | "corrupt" {
  const r = readJsonState<T>(file);
  return r.kind === "ok" ? r.value : r.kind === "absent" ? undefined : "corrupt";
}

/** Create (or keep) a small marker file, durably. */
export function touchDurably(file: string, content = ""): void {
  writeStoreFile(file, content, { durable: true });
}
