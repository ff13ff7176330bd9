// "Did you mean": the nearest known words to a mistyped one.
import { editDistance } from "../naming/distance";

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
