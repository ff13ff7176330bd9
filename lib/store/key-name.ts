// The project key as a name (DESIGN.md §3): pure string work plus a hash, in a
// module of its own so a reader that only needs the name (shell completion,
// lib/cli/complete-sessions.ts) does not load the adoption code beside it.
import { sha256Hex } from "../hash";

/** The key before collision-free keys: the path with `/` and `.` turned into `-`. */
export function legacyProjectKey(mainRoot: string): string {
  return mainRoot.replace(/[/.]/g, "-");
}

/** The readable tail of the legacy key, then 16 hex of the path's SHA-256. */
export function projectKey(realRoot: string): string {
  const digest = sha256Hex(realRoot).slice(0, 16);
  return `${legacyProjectKey(realRoot).slice(-64)}-${digest}`;
}
