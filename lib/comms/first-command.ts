// An interactive shell session runs its launch prompt as its first command
// (docs/harnesses.md): it is handed over like any message from the user,
// queued and typed once the shell is at its prompt, so it shows on screen, in
// the shell's history, in the timeline and in `message-status`. Only the
// first launch types it: a relaunch gives the shell back without running a
// command the user already ran.
import type { LaunchResult } from "../launch/start";
import type { ProjectStore } from "../store";
import { type SendResult, sendMessage } from "./send";
import { eventsAfter } from "./timeline";

function typedBefore(store: ProjectStore, id: string, text: string): boolean {
  return eventsAfter(store, id, 0, Number.POSITIVE_INFINITY).some((e) => e.kind === "message_in" && e.from.kind === "user" && e.text === text);
}

export async function typeFirstCommand(store: ProjectStore, id: string, launch: LaunchResult): Promise<SendResult | undefined> {
  if (launch.firstCommand === null || typedBefore(store, id, launch.firstCommand)) return undefined;
  return sendMessage(store, { target: id, from: { kind: "user" }, text: launch.firstCommand, keys: [] });
}
