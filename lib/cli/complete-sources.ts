// `spex internal complete -- <words…>`, the shells' Tab (shell/spex.*): the
// candidates from the command shapes, and for a value or a positional what
// it names. Each Tab starts a process, so this loads the least it can: verbs
// and options need nothing but completion's own table (lib/generated/completion.ts,
// the manifest without descriptions, usage lines or loaders); the sessions come
// from one listing of the store's sessions folder and each record's name,
// without lib/store, the record reader, liveness or git (lib/cli/complete-read.ts
// and complete-sessions.ts, imported only when the word being completed names
// a session, launcher, group or machine).
import { type CompletionShape, type CompletionSources, type ValueKind, completeWords } from "./complete";
import { COMPLETION } from "../generated/completion";

/**
 * The candidates for `spex internal complete [--] <words…>`. completeWords is
 * pure and synchronous: a first pass records which kinds of value it wants,
 * those are read, and a second pass answers with them.
 */
export async function completeArgv(argv: string[], shapes: readonly CompletionShape[] = COMPLETION): Promise<string[]> {
  const words = argv[0] === "--" ? argv.slice(1) : argv;
  const typed = words.length > 0 ? words : [""];
  const wanted = new Set<ValueKind>();
  const record = (kind: ValueKind) => () => (wanted.add(kind), []);
  completeWords(typed, shapes, { session: record("session"), launcher: record("launcher"), group: record("group"), machine: record("machine") });
  const values = new Map<ValueKind, string[]>();
  if (wanted.size > 0) {
    const read = (await import(/* webpackMode: "eager" */ "./complete-read")).sources();
    await Promise.all([...wanted].map(async (kind) => values.set(kind, await read[kind]())));
  }
  const answer = (kind: ValueKind) => () => values.get(kind) ?? [];
  const loaded: CompletionSources = { session: answer("session"), launcher: answer("launcher"), group: answer("group"), machine: answer("machine") };
  return completeWords(typed, shapes, loaded);
}
