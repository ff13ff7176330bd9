// `spex internal complete -- <words…>`, the shells' Tab (shell/spex.*): the
// candidates from the command manifest, and for a value or a positional what
// it names. Each Tab starts a process, so this loads the least it can: the
// sessions come from one listing of the store's sessions folder and each
// record's name, without the record reader, liveness or git; launchers,
// groups and machines are imported only when the word being completed names one.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type CompletionSources, type ValueKind, completeWords } from "./complete";
import type { CommandShape } from "./shape";
import { currentProject, isSessionId } from "../store";
import { HARNESS_NAMES } from "../harness/types";

/** Outside a project (or on any read error) a source offers nothing rather than failing the shell's completion. */
async function quietly(read: () => string[] | Promise<string[]>): Promise<string[]> {
  try {
    return await read();
  } catch {
    return [];
  }
}

/** A name worth offering: one shell word, nothing a terminal would act on. */
const offerable = (name: unknown): name is string => typeof name === "string" && name !== "" && !/[\s\u0000-\u001f\u007f-\u009f]/u.test(name);

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
function sources(): Record<ValueKind, () => Promise<string[]>> {
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

/**
 * The candidates for `spex internal complete [--] <words…>`. completeWords is
 * pure and synchronous: a first pass records which kinds of value it wants,
 * those are read, and a second pass answers with them.
 */
export async function completeArgv(argv: string[], shapes: readonly CommandShape[]): Promise<string[]> {
  const words = argv[0] === "--" ? argv.slice(1) : argv;
  const typed = words.length > 0 ? words : [""];
  const wanted = new Set<ValueKind>();
  const record = (kind: ValueKind) => () => (wanted.add(kind), []);
  completeWords(typed, [...shapes], { session: record("session"), launcher: record("launcher"), group: record("group"), machine: record("machine") });
  const read = sources();
  const values = new Map<ValueKind, string[]>();
  await Promise.all([...wanted].map(async (kind) => values.set(kind, await read[kind]())));
  const answer = (kind: ValueKind) => () => values.get(kind) ?? [];
  const loaded: CompletionSources = { session: answer("session"), launcher: answer("launcher"), group: answer("group"), machine: answer("machine") };
  return completeWords(typed, [...shapes], loaded);
}
