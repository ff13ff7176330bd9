// live's tmux calls, started as the process starts (cmd/main.ts), before the
// modules live runs on have loaded: tmux lists and captures every pane while
// they load, instead of after (bench/README.md, "live's tmux call ahead of its
// modules"). Only for the plain observation (every pane, once, on this
// machine) and only for the servers every scan includes whatever the project
// config says; observeLive takes each call for its server, and a call nobody
// took is ended before the process exits.
import { type CaptureAllCall, startCaptureAll } from "../tmux/capture";
import { socketFileLikely } from "../tmux/socket-file";
import { LIST_PRELUDE } from "./discover";
import { liveServers } from "./servers";

const started = new Map<string, CaptureAllCall>();

/** Options of `session live` that leave its observation the plain one: every pane of this machine, observed once. */
const PLAIN = new Set(["--json", "--once"]);

/** Is this argv (after the program name) a `session live` whose first tmux calls can start now? */
export function plainLiveObservation(args: string[]): boolean {
  if (args[0] !== "session" || args[1] !== "live") return false;
  for (let i = 2; i < args.length; i++) {
    const a = args[i]!;
    if (PLAIN.has(a) || a.startsWith("--status=")) continue;
    // --status filters after the capture; its value is the next word.
    if (a === "--status" && i + 1 < args.length) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/** Start the list-and-capture call of each server a scan from this environment is sure to include and that seems to run. */
export function startEarlyLive(env: NodeJS.ProcessEnv = process.env): void {
  // Bun's spawn streams the list as it comes; under Node the call waits for its turn as before.
  if (typeof Bun === "undefined") return;
  for (const socket of liveServers(env)) {
    if (socketFileLikely(socket)) started.set(socket, startCaptureAll(socket, LIST_PRELUDE));
  }
}

/** The call started early for this server, once (undefined when none was). */
export function takeEarlyLive(socket: string): CaptureAllCall | undefined {
  const call = started.get(socket);
  started.delete(socket);
  return call;
}

/** End the calls nobody took (the config named another spex socket, or the command failed first). */
export function cancelEarlyLive(): void {
  for (const call of started.values()) call.cancel();
  started.clear();
}
