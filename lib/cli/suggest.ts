// "Did you mean": the nearest known words to a mistyped one.

/** Edit distance where swapping two neighbours counts as one edit (`stauts` → `status`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidates closest to `word`: a unique-enough prefix match, else those at
 * the smallest edit distance within a third of the word's length (at least one
 * edit). Leading dashes are not counted, so `--stat` is near `--status`.
 */
export function nearest(word: string, candidates: string[]): string[] {
  const bare = (w: string) => w.replace(/^-+/, "").toLowerCase();
  const typed = bare(word);
  if (!typed) return [];
  const unique = [...new Set(candidates)];
  const prefixed = unique.filter((c) => bare(c).startsWith(typed));
  if (prefixed.length > 0 && prefixed.length <= 3) return prefixed;
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best = Infinity;
  let out: string[] = [];
  for (const c of unique) {
    const dist = editDistance(typed, bare(c));
    if (dist > limit || dist > best) continue;
    if (dist < best) out = [];
    best = dist;
    out.push(c);
  }
  return out.slice(0, 3);
}

/** `a`, `a or b`, `a, b or c`, each in backticks. */
export function orList(words: string[]): string {
  const q = words.map((w) => `\`${w}\``);
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}
