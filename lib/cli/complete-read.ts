// The values completion offers (lib/cli/complete-sources.ts), read the
// cheapest way there is; imported only when the word being completed names one.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { currentProject, isSessionId } from "../store";
import { HARNESS_NAMES } from "../harness/types";
import type { ValueKind } from "./complete";

/** Outside a project (or on any read error) a source offers nothing rather than failing the shell's completion. */
async function quietly(read: () => string[] | Promise<string[]>): Promise<string[]> {
  try {
    return await read();
  } catch {
    return [];
  }
}

/**
 * A name worth offering: one line, nothing a terminal would act on. Blanks and
 * shell syntax are fine: the completion scripts quote every candidate.
 */
const offerable = (name: unknown): name is string => typeof name === "string" && name !== "" && !/[\u0000-\u001f\u007f-\u009f]/u.test(name);

/** Each session's short id, and its name when it has one. */
export function sessionWords(sessionsDir: string): string[] {
  const out: string[] = [];
  let ids: string[];
  try {
    ids = readdirSync(sessionsDir);
  } catch {
    return [];
  }
  for (const id of ids) {
    if (!isSessionId(id)) continue;
    let text: string;
    try {
      text = readFileSync(join(sessionsDir, id, "session.json"), "utf8");
    } catch (e) {
      // No record (yet, or any more): no session to offer; one the system refuses to read is still a session.
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") out.push(id.replace(/-/g, "").slice(0, 8));
      continue;
    }
    out.push(id.replace(/-/g, "").slice(0, 8));
    try {
      const name = (JSON.parse(text) as { name?: unknown }).name;
      if (offerable(name)) out.push(name);
    } catch {
      // a corrupt record still has its id
    }
  }
  return out;
}

/** Where each kind of value comes from; each read only when asked for. */
export function sources(): Record<ValueKind, () => Promise<string[]>> {
  return {
    session: () => quietly(() => sessionWords(currentProject().sessionsDir)),
    launcher: () =>
      quietly(async () => {
        let root: string;
        try {
          root = currentProject().root;
        } catch {
          return [...HARNESS_NAMES]; // outside a repository only the built-in launchers exist
        }
        const { loadConfig } = await import(/* webpackMode: "eager" */ "../config");
        return Object.keys(loadConfig(root).launchers);
      }),
    group: () =>
      quietly(async () => {
        const { listGroups } = await import(/* webpackMode: "eager" */ "../coord");
        return listGroups(currentProject()).map((g) => g.path);
      }),
    machine: () =>
      quietly(async () => {
        const { readMachines } = await import(/* webpackMode: "eager" */ "../machines/list");
        return readMachines().map((m) => m.name);
      }),
  };
}
