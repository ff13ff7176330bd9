// Shell completion from the command registry itself, so completions never
// drift from the verbs: the next path word, then the verb's options and the
// project's session selectors.

export interface CompletableCommand {
  paths: string[][];
  options: string[];
  /** Whether the verb takes a session selector. */
  takesSelector: boolean;
}

/**
 * Candidates for the word being typed. `words` are the words after `spex`,
 * the last one being the (possibly empty) partial word.
 */
export function completeWords(words: string[], commands: CompletableCommand[], selectors: () => string[]): string[] {
  const typed = words.slice(0, -1);
  const partial = words[words.length - 1] ?? "";
  const out = new Set<string>();
  let matched: CompletableCommand | undefined;
  for (const c of commands) {
    for (const p of c.paths) {
      if (typed.length < p.length && typed.every((w, i) => p[i] === w)) out.add(p[typed.length]!);
      if (typed.length >= p.length && p.every((w, i) => typed[i] === w)) {
        if (!matched || p.length > Math.max(...matched.paths.map((q) => q.length))) matched = c;
      }
    }
  }
  if (matched) {
    for (const o of matched.options) out.add(o);
    if (matched.takesSelector && !partial.startsWith("-")) for (const s of selectors()) out.add(s);
  }
  return [...out].filter((w) => w.startsWith(partial)).sort();
}
