// What the last setup of a session did, in a side file of its store folder
// (`setup.json`), next to its log (`setup.log`). The record only carries
// `setup: "failed"` while that stands (the display reads it); the side file
// keeps the details (exit status, reason, log) and the runner's identity, so a
// reader can tell a setup still running from one whose runner died.
import { writeStoreFile } from "../nofollow";
import { readJsonState } from "../record";
import { type ProcessIdentity, ownerAlive } from "../proc";
import { type ProjectStore, sessionPaths } from "../store";

export interface SetupState {
  state: "running" | "ok" | "failed";
  runner: ProcessIdentity;
  startedAt: string;
  finishedAt?: string;
  exit?: number | null;
  /** `exit 2`, `timed out after 600 s`, `interrupted`. */
  reason?: string;
  /** The command (or script) that failed. */
  failed?: string;
  log: string;
  /** When a setup of this session first succeeded (kept by later runs). */
  passedAt?: string;
}

export function setupPaths(store: ProjectStore, id: string): { state: string; log: string } {
  const dir = sessionPaths(store, id).dir;
  return { state: `${dir}/setup.json`, log: `${dir}/setup.log` };
}

/** The side file as spex writes it; anything else (hand-edited, planted, a folder in its place) reads as no setup recorded. */
export function readSetupState(store: ProjectStore, id: string): SetupState | undefined {
  const read = readJsonState<Record<string, unknown>>(setupPaths(store, id).state);
  if (read.kind !== "ok") return undefined;
  const v = read.value;
  const ok =
    typeof v === "object" &&
    v !== null &&
    (v.state === "running" || v.state === "ok" || v.state === "failed") &&
    typeof v.runner === "object" &&
    v.runner !== null &&
    typeof v.startedAt === "string" &&
    typeof v.log === "string";
  return ok ? (v as unknown as SetupState) : undefined;
}

export function writeSetupState(store: ProjectStore, id: string, state: SetupState): void {
  writeStoreFile(setupPaths(store, id).state, JSON.stringify(state, null, 2) + "\n");
}

/** A setup whose runner is still alive: the launch it belongs to is not over, whatever the clock says. */
export function setupRunning(store: ProjectStore, id: string): boolean {
  const s = readSetupState(store, id);
  return s?.state === "running" && ownerAlive(s.runner);
}

/** When the last setup finished (ms since the epoch), if one did: a launch's readiness clock starts there. */
export function setupFinishedAt(store: ProjectStore, id: string): number | undefined {
  const s = readSetupState(store, id);
  const t = s?.finishedAt ? Date.parse(s.finishedAt) : NaN;
  return Number.isFinite(t) ? t : undefined;
}

/** Setup is due on a launch: configured, and never succeeded for this session. */
export function setupDue(store: ProjectStore, id: string): boolean {
  return readSetupState(store, id)?.passedAt === undefined;
}

/** The agent never started: setup ran for this session and never once succeeded. */
export function setupNeverPassed(store: ProjectStore, id: string): boolean {
  const s = readSetupState(store, id);
  return s !== undefined && s.passedAt === undefined;
}
