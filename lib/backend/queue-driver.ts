// `serve` drives the launch queue too (issue 13 item 4): a slot can free with
// no spex process to notice (an agent killed from outside), so while it runs
// the backend looks every few seconds, with one stat when nothing is queued.
import { drainLaunchQueue } from "../create";
import type { ProjectStore } from "../store";

export const QUEUE_DRIVE_MS = 2000;

export function driveLaunchQueue(store: ProjectStore, everyMs = QUEUE_DRIVE_MS): () => void {
  let running = false;
  const tick = async (force: boolean) => {
    if (running) return;
    running = true;
    try {
      await drainLaunchQueue(store, { force });
    } catch {
      // the next tick tries again; a refusal here has no caller to report to
    } finally {
      running = false;
    }
  };
  void tick(true);
  const timer = setInterval(() => void tick(false), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
