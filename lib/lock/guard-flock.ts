// The portable guard: flock(2) on a guard file in the lock's folder. The
// guard files are never removed (removing a flock file lets a waiter lock the
// unlinked copy while a newcomer locks a fresh one), so a lock's guard is one
// of a fixed set of files per folder, picked by a hash of the lock's name;
// two locks sharing one only take turns for the microseconds of a check.
import { closeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { tryFlock } from "./flock";
import type { TryGuard } from "./guard-types";
import { sha256Hex } from "../hash";

const GUARD_FILES = 32;

export function guardFile(lockPath: string): string {
  const slot = parseInt(sha256Hex(basename(lockPath)).slice(0, 2), 16) % GUARD_FILES;
  return join(dirname(lockPath), `.guard-${slot.toString(16).padStart(2, "0")}`);
}

export const flockGuard: TryGuard = async (lockPath) => {
  const fd = tryFlock()(guardFile(lockPath));
  return fd === undefined ? undefined : { release: async () => closeSync(fd) };
};
