// Small durable-file helpers for comms state (queue entries, watchers, cursors):
// atomic replace with fsync of the folder, and reads where absence is a value.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { errnoCode } from "../errors";

export { writeJsonDurably } from "../record";
import { fsyncDir } from "../record";

/** The parsed file, undefined when it does not exist, `corrupt` when it cannot be parsed. */
export function readJsonFile<T>(file: string): T | undefined | "corrupt" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return "corrupt";
  }
}

/** Create (or keep) a small marker file, durably. */
export function touchDurably(file: string, content = ""): void {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, "w", 0o644);
  try {
    if (content) writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDir(dirname(file));
}
