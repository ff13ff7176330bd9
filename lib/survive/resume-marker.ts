// A session `resume --all` put in the launch queue: it is relaunched into its
// own conversation (the harness's resume marker), not started afresh with its
// prompt, when the queue gives it a slot. The marker sits in the session's
// folder from before its record says `queued` until its launch is under way.
import { existsSync, rmSync } from "node:fs";
import { writeStoreFile } from "../nofollow";
import { type ProjectStore, sessionPaths } from "../store";

function markerFile(store: ProjectStore, id: string): string {
  return `${sessionPaths(store, id).dir}/resume-queued`;
}

export function markResumeQueued(store: ProjectStore, id: string): void {
  writeStoreFile(markerFile(store, id), "", { durable: true });
}

export function resumeQueued(store: ProjectStore, id: string): boolean {
  return existsSync(markerFile(store, id));
}

export function clearResumeQueued(store: ProjectStore, id: string): void {
  rmSync(markerFile(store, id), { force: true });
}
