// The watching session of `watch` and `watch cancel`: --watcher, else the
// caller's own session. A watcher must be a session: notices are typed into it.
import { SpexError } from "../../../lib/errors";
import { readSession } from "../../../lib/record";
import { matchSelector, readAll, resolveSelector } from "../../../lib/sessions";
import { type ProjectStore, currentProject, sessionIdFromEnv } from "../../../lib/store";
import { Option } from "clipanion";
import { SpexCommand } from "../../base";

export function resolveWatcher(store: ProjectStore, explicit: string | undefined): string {
  if (explicit) return resolveSelector(store, explicit).id;
  const own = sessionIdFromEnv();
  if (own && readSession(store, own).kind !== "absent") return own;
  throw new SpexError("watcher_unknown", "watching needs a session to deliver to, and this caller has none", {
    hint: "pass --watcher SEL, or use `spex session wait` / `spex session watch stream` from a plain terminal",
    exitCode: 2,
  });
}

/** The shared shape of `watch` and `watch cancel`: watched selectors and the watcher. */
export abstract class WatchRelationCommand extends SpexCommand {
  selectors = Option.Rest({ name: "SEL", required: 1 });
  watcher = Option.String("--watcher", { description: "The watching session (default: SPEX_SESSION_ID)" });

  /** Apply `change` to each watched session, in the order given. */
  protected async eachWatched<T>(change: (store: ProjectStore, watched: string, watcher: string) => Promise<T>): Promise<{ watched: string; watcher: string; result: T }[]> {
    const store = currentProject();
    const readings = readAll(store);
    const watcher = resolveWatcher(store, this.watcher);
    const out = [];
    for (const s of this.selectors) {
      const watched = matchSelector(readings, s).id;
      out.push({ watched, watcher, result: await change(store, watched, watcher) });
    }
    return out;
  }
}
