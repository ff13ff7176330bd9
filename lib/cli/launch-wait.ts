// `new` and `resume` on a terminal: what the launch is waiting for, in words a
// person can act on (which tmux session to attach to, what would end the wait).
import type { Writable } from "node:stream";
import type { ReadinessWait } from "../launch";
import { type Spinner, spinnerOn } from "./spinner";

export function describeReadinessWait(w: ReadinessWait): string {
  if (w.mode === "pid") return `waiting for the agent's process in tmux session ${w.tmuxSession} to start`;
  if (w.harness === "shell") return `waiting for the shell in tmux session ${w.tmuxSession} to show its first prompt`;
  return `waiting for ${w.harness} in tmux session ${w.tmuxSession} to report that it started`;
}

/** A spinner for a launch (none with --json or off a terminal), and the callback that tells it the wait. */
export function launchSpinner(stderr: Writable, json: boolean, first: string): { spinner: Spinner; onWaiting: (w: ReadinessWait) => void } {
  const spinner = spinnerOn(stderr, !json);
  spinner.say(first);
  return { spinner, onWaiting: (w) => spinner.say(describeReadinessWait(w), w.timeoutMs) };
}
