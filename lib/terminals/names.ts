// What a terminal answers to (docs/terminals.md "Names"). A terminal is
// addressed by its id, a unique id prefix or its name, so a name must never
// read as an id prefix (it would catch what is sent to another terminal's
// short id) and two terminals never share one (both would turn ambiguous):
// the same rules as session names (lib/sessions/names.ts). Names are checked
// and chosen under one project-wide terminals lock, so two opens at once
// never take one name.
import { join } from "node:path";
import { SpexError } from "../errors";
import { labelOf, slugify } from "../naming";
import type { SessionRecord } from "../record";
import { looksLikeIdPrefix } from "../sessions/names";
import type { ProjectStore } from "../store";
import { listTerminalIds, readTerminal } from "./record";

export const MAX_TERMINAL_NAME = 100;

/** The lock that orders name checks with the opens that take them. */
export function terminalsLockPath(store: ProjectStore): string {
  return join(store.locksDir, "terminals.lock");
}

/** Refuses a name no terminal may carry, whoever else exists (`name_invalid`). */
export function refuseInvalidTerminalName(name: string): void {
  const bad = (why: string, hint: string) =>
    new SpexError("name_invalid", `${JSON.stringify([...name].slice(0, MAX_TERMINAL_NAME).join(""))} is not a terminal name: ${why}`, { hint, exitCode: 2, httpStatus: 400 });
  if ([...name].length > MAX_TERMINAL_NAME) throw bad(`it is longer than ${MAX_TERMINAL_NAME} characters`, `pick a name of at most ${MAX_TERMINAL_NAME} characters`);
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(name)) throw bad("it holds control characters", "pick a name of printable characters");
  if (name.trim() !== name || name === "") throw bad("it starts or ends with a blank", "pick a name without leading or trailing blanks");
  if (looksLikeIdPrefix(name)) {
    throw bad("it would read as a terminal id prefix", "pick a name with a letter outside a–f, or a dash where an id has none");
  }
}

/** The names every readable terminal of the project carries. */
export function takenTerminalNames(store: ProjectStore): Map<string, string> {
  const taken = new Map<string, string>();
  for (const id of listTerminalIds(store)) {
    const r = readTerminal(store, id);
    if (r.kind === "ok") taken.set(r.record.name, id);
  }
  return taken;
}

/** Refuses a name another terminal already carries (`name_taken`); the caller holds the terminals lock. */
export function refuseTakenTerminalName(taken: Map<string, string>, name: string): void {
  const holder = taken.get(name);
  if (holder === undefined) return;
  throw new SpexError("name_taken", `the name ${JSON.stringify(name)} is already the name of terminal ${holder.slice(0, 8)}`, {
    hint: "pick another name; names stay unique so a name always means one terminal",
    details: { terminal: holder },
    httpStatus: 409,
  });
}

/** At most `max` characters of a slug, cut at a dash so no word is halved (the first word is kept whole up to `max`). */
function shortSlug(text: string, max: number): string {
  const words = slugify(text).split("-").filter(Boolean);
  let out = "";
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if ([...next].length > max) break;
    out = next;
  }
  return out || [...(words[0] ?? "")].slice(0, max).join("");
}

/**
 * A short, readable owner for default names: the session's display name or
 * node when it has one, else the first words of its title (never the whole
 * prompt); "main" for the main checkout.
 */
export function terminalOwner(record: SessionRecord | undefined): string {
  if (!record) return "main";
  for (const source of [record.name, record.node, labelOf(record)]) {
    const owner = source ? shortSlug(source, 16) : "";
    if (owner) return owner;
  }
  return "term";
}

/** `<owner>-<n>`, the lowest n no terminal uses; never a name that reads as an id prefix. */
export function defaultTerminalName(taken: Map<string, string>, owner: string): string {
  const base = looksLikeIdPrefix(`${owner}-1`) ? `term-${owner}` : owner;
  for (let n = 1; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
