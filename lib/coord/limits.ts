// How much text a coordination entry may hold (docs/coord.md "Limits"). What
// is stored here is carried whole by every `task ls`, `reserve ls`, `group ls`
// and snapshot, to every reader, on every poll: one 5 MB title would weigh
// more than the rest of the board. So every stored string has a bound, the
// same for the CLI, HTTP and MCP (which declares these in its schemas), and a
// longer one is refused (`input_too_long`) before anything is written.
import { SpexError } from "../errors";

export const COORD_LIMITS = {
  /** A task's one-line title, in characters. */
  taskTitle: 500,
  /** A task's full instruction. */
  taskBody: 65_536,
  /** Dependencies of one task. */
  taskDependsOn: 100,
  /** A task id as given (`t12`, `12`). */
  taskId: 64,
  /** One reserved path or glob (a path may be as long as the system allows). */
  pattern: 4096,
  /** Patterns in one reserve or release. */
  patterns: 100,
  /** A lease's note. */
  leaseNote: 2000,
  /** A group's path, all segments. */
  groupPath: 256,
  /** A group's default directory. */
  groupDirectory: 4096,
} as const;

/** Characters as a person counts them (code points), without spreading a huge string into an array. */
export function characters(text: string, stopAfter = Infinity): number {
  if (text.length <= stopAfter) {
    // No surrogate pairs: one UTF-16 unit is one character.
    if (!/[\ud800-\udfff]/.test(text)) return text.length;
  }
  let n = 0;
  for (const _ of text) if (++n > stopAfter) break;
  return n;
}

/** Refuses a string longer than `max` characters, naming the field and the limit. */
export function refuseTooLong(field: string, value: string, max: number): void {
  if (value.length <= max) return;
  const length = characters(value, max);
  if (length <= max) return;
  throw new SpexError("input_too_long", `${field} is ${value.length > 1e6 ? "over a million" : `${characters(value)}`} characters long; at most ${max} are kept`, {
    hint: `shorten ${field} to ${max} characters or fewer (put long text in a file the entry names)`,
    details: { field, limit: max },
    exitCode: 2,
    httpStatus: 400,
  });
}

/** Refuses a list with more than `max` entries. */
export function refuseTooMany(field: string, list: readonly unknown[], max: number): void {
  if (list.length <= max) return;
  throw new SpexError("input_too_long", `${field} has ${list.length} entries; at most ${max} are taken at once`, {
    hint: `give at most ${max}`,
    details: { field, limit: max },
    exitCode: 2,
    httpStatus: 400,
  });
}
