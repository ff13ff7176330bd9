// An interactive shell session runs its launch prompt as its first command
// (docs/harnesses.md): it is handed over like any message from the user,
// queued and typed once the shell is at its prompt, so it shows on screen, in
// the shell's history, in the timeline and in `message-status`.
import type { LaunchResult } from "../launch/start";
import type { ProjectStore } from "../store";
import { type SendResult, sendMessage } from "./send";

export async function typeFirstCommand(store: ProjectStore, id: string, launch: LaunchResult): Promise<SendResult | undefined> {
  if (launch.firstCommand === null) return undefined;
  return sendMessage(store, { target: id, from: { kind: "user" }, text: launch.firstCommand, keys: [] });
}
