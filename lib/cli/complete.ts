// Shell completion from the command shapes themselves, so completions never
// drift from the verbs: the next path word, then the verb's options, and for a
// value or a positional what it names (sessions, launchers, groups, machines).
import { optionNamed } from "./shape";

export type ValueKind = "session" | "launcher" | "group" | "machine";

/**
 * What completion reads of a command: a CommandShape is one, and
 * lib/generated/completion.ts holds just this of every visible command, so a
 * Tab does not load the whole manifest (descriptions, usage lines, loaders).
 */
export interface CompletionShape {
  paths: string[][];
  hidden?: boolean;
  options: { names: string[]; arity: number; hidden?: boolean }[];
  positionals: { name: string; rest: boolean }[];
}

/** Where the candidates of each kind come from (read lazily: most completions need none). */
export type CompletionSources = Record<ValueKind, () => string[]>;

const OPTION_VALUES: Record<string, ValueKind> = {
  "--session": "session",
  "--parent": "session",
  "--to": "session",
  "--watcher": "session",
  "--from": "session",
  "--launcher": "launcher",
  "--group": "group",
  "--machine": "machine",
};

/** What a positional names, by its declared name (`SEL`, `GROUP`, …). */
function positionalKind(name: string): ValueKind | undefined {
  if (name === "SEL" || name === "selector") return "session";
  if (name === "GROUP") return "group";
  return undefined;
}

function longestMatch(shapes: readonly CompletionShape[], typed: string[]): { shape: CompletionShape; length: number } | undefined {
  let best: { shape: CompletionShape; length: number } | undefined;
  for (const s of shapes) {
    for (const p of s.paths) {
      if (p.length > 0 && typed.length >= p.length && p.every((w, i) => typed[i] === w) && (!best || p.length > best.length)) best = { shape: s, length: p.length };
    }
  }
  return best;
}

/**
 * Candidates for the word being typed. `words` are the words after `spex`,
 * the last one being the (possibly empty) partial word.
 */
export function completeWords(words: string[], shapes: readonly CompletionShape[], sources: CompletionSources): string[] {
  const visible = shapes.filter((s) => !s.hidden);
  const typed = words.slice(0, -1);
  const partial = words[words.length - 1] ?? "";
  const out = new Set<string>();
  for (const s of visible) {
    for (const p of s.paths) if (typed.length < p.length && typed.every((w, i) => p[i] === w)) out.add(p[typed.length]!);
  }
  const match = longestMatch(visible, typed);
  if (match) {
    let rest = typed.slice(match.length);
    // bash splits `--launcher=cl` at the `=` (COMP_WORDBREAKS): complete the value alone.
    if (rest[rest.length - 1] === "=" && rest.length >= 2) rest = rest.slice(0, -1);
    const last = rest[rest.length - 1];
    const pending = last !== undefined && !rest.includes("--") ? optionNamed(match.shape, last) : undefined;
    if (pending && pending.arity > 0 && !last!.includes("=")) {
      // Completing the value of `--launcher <Tab>`: only values, never options.
      const kind = OPTION_VALUES[pending.names[0]!];
      return kind ? sources[kind]().filter((w) => w.startsWith(partial)).sort() : [];
    }
    const bound = /^(--[\w-]+)=(.*)$/.exec(partial);
    if (bound && OPTION_VALUES[bound[1]!] && optionNamed(match.shape, bound[1]!)) {
      return sources[OPTION_VALUES[bound[1]!]!]().map((v) => `${bound[1]}=${v}`).filter((w) => w.startsWith(partial)).sort();
    }
    if (partial === "" || partial.startsWith("-")) for (const o of match.shape.options) if (!o.hidden) for (const n of o.names) out.add(n);
    if (!partial.startsWith("-")) {
      const kind = nextPositionalKind(match.shape, rest);
      if (kind) for (const v of sources[kind]()) out.add(v);
    }
  }
  return [...out].filter((w) => w.startsWith(partial)).sort();
}

/** The kind of the positional the next word fills, counting the words typed after the path. */
function nextPositionalKind(shape: CompletionShape, rest: string[]): ValueKind | undefined {
  let index = 0;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w.startsWith("-") && w !== "-") {
      const o = optionNamed(shape, w);
      if (o && o.arity > 0 && !w.includes("=")) i += o.arity;
      continue;
    }
    index++;
  }
  const ps = shape.positionals;
  const p = ps[index] ?? (ps[ps.length - 1]?.rest ? ps[ps.length - 1] : undefined);
  return p ? positionalKind(p.name) : undefined;
}
