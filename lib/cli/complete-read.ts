// The values completion offers (lib/cli/complete-sources.ts), read the
// cheapest way there is; imported only when the word being completed names one.
// Sessions come from lib/cli/complete-sessions.ts, which finds the store
// without lib/store in the plain case; the rest load what they read when asked.
import type { ValueKind } from "./complete";
import { lookupSessions, sessionWords } from "./complete-sessions";

/** Outside a project (or on any read error) a source offers nothing rather than failing the shell's completion. */
async function quietly(read: () => string[] | Promise<string[]>): Promise<string[]> {
  try {
    return await read();
  } catch {
    return [];
  }
}

const store = () => import(/* webpackMode: "eager" */ "../store");

/** Where each kind of value comes from; each read only when asked for. */
export function sources(): Record<ValueKind, () => Promise<string[]>> {
  return {
    session: () =>
      quietly(async () => {
        const found = lookupSessions();
        if (found === "none") return [];
        return sessionWords(found === "unsure" ? (await store()).currentProject().sessionsDir : found.sessionsDir);
      }),
    launcher: () =>
      quietly(async () => {
        let root: string;
        try {
          root = (await store()).currentProject().root;
        } catch {
          // outside a repository only the built-in launchers exist
          return [...(await import(/* webpackMode: "eager" */ "../harness/types")).HARNESS_NAMES];
        }
        const { loadConfig } = await import(/* webpackMode: "eager" */ "../config");
        return Object.keys(loadConfig(root).launchers);
      }),
    group: () =>
      quietly(async () => {
        const [{ listGroups }, { currentProject }] = await Promise.all([import(/* webpackMode: "eager" */ "../coord"), store()]);
        return listGroups(currentProject()).map((g) => g.path);
      }),
    machine: () =>
      quietly(async () => {
        const { readMachines } = await import(/* webpackMode: "eager" */ "../machines/list");
        return readMachines().map((m) => m.name);
      }),
  };
}
