// The watching session of `watch` and `watch cancel`: --watcher, else the
// caller's own session. A watcher must be a session: notices are typed into it.
import { SpexError } from "../../../lib/errors";
import { readSession } from "../../../lib/record";
import { resolveSelector } from "../../../lib/sessions";
import type { ProjectStore } from "../../../lib/store";

export function resolveWatcher(store: ProjectStore, explicit: string | undefined): string {
  if (explicit) return resolveSelector(store, explicit).id;
  const own = process.env.SPEX_SESSION_ID;
  if (own && readSession(store, own).kind !== "absent") return own;
  throw new SpexError("watcher_unknown", "watching needs a session to deliver to, and this caller has none", {
    hint: "pass --watcher SEL, or use `spex session wait` / `spex session watch stream` from a plain terminal",
    exitCode: 2,
  });
}
