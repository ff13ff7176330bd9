// The exact text typed for a message (DESIGN.md §1.7, §13): the sender's words
// behind a one-line envelope naming who sent them, made paste-safe here, the
// one place every message kind passes (CLI, HTTP route, watch notices), so a
// body cannot end its own bracketed paste or submit itself. A shell session
// runs what is typed as a command line: there the envelope (another session's
// label, a `--from` name) would run too, `$(…)`, backticks and `;` included,
// so a shell gets the sender's words alone (who sent them stays on its timeline).
import { promptSeam, shortId } from "../naming";
import { parseRemoteSessionName } from "../naming/machine";
import { pasteSafeText } from "../tmux";
import type { QueuedMessage } from "./queue";

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/gu, " ").trim();
}

function envelope(m: QueuedMessage): string {
  switch (m.from.kind) {
    case "user":
    case "watch":
      return promptSeam(m.text);
    case "name": {
      // A session of another machine is named `<machine>:<id>` there (docs/machines.md); the reply goes back the same way.
      const remote = parseRemoteSessionName(m.from.name);
      if (remote) {
        const address = `${remote.machine}:${shortId(remote.id, 8)}`;
        return `[message from session ${address} on machine ${remote.machine}; reply with: spex session send ${address} "..."]\n${m.text}`;
      }
      return `[message from ${oneLine(m.from.name)}; it cannot receive replies]\n${m.text}`;
    }
    case "session": {
      const short = shortId(m.from.id, 8);
      return `[message from session ${oneLine(m.from.label)} (${short}); reply with: spex session send ${short} "..."]\n${m.text}`;
    }
  }
}

/** Does the target run typed text as commands (the shell harness)? Then nothing but the words is typed. */
export function runsTypedText(harness: string): boolean {
  return harness === "shell";
}

/** Why a watch notice is never typed into a shell: its text (another session's label and note) would run. */
export const SHELL_NOTICE = "a shell session runs what is typed, so a watch notice is not typed into it; `spex session wait` follows the session";

export function typedText(m: QueuedMessage, harness = ""): string {
  return pasteSafeText(runsTypedText(harness) ? promptSeam(m.text) : envelope(m));
}
