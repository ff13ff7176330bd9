// Namespaces (`session`, `task`, `group`, `reserve`, …) come from the command
// paths themselves, so a new family of verbs is listed the day it is registered.
import { sortCategories } from "./categories";
import type { CommandShape } from "./shape";

const same = (a: string[], b: string[]) => a.length === b.length && a.every((w, i) => w === b[i]);
const startsWith = (path: string[], prefix: string[]) => path.length > prefix.length && prefix.every((w, i) => path[i] === w);

/** A word that may follow `prefix`, and the command it leads to. */
export interface NextWord {
  word: string;
  command: CommandShape;
}

/** Every word that can follow `prefix` in a documented command path, aliases included. */
export function nextWords(shapes: CommandShape[], prefix: string[]): NextWord[] {
  const out: NextWord[] = [];
  for (const s of shapes) {
    if (s.hidden) continue;
    for (const p of s.paths) if (startsWith(p, prefix) && !out.some((n) => n.word === p[prefix.length])) out.push({ word: p[prefix.length]!, command: s });
  }
  return out;
}

/** Whether `words` name a namespace: documented commands live beneath them. */
export function isNamespace(shapes: CommandShape[], words: string[]): boolean {
  return words.length > 0 && nextWords(shapes, words).length > 0;
}

/** The command whose path `words` are exactly, if any. */
export function commandAt(shapes: CommandShape[], words: string[]): CommandShape | undefined {
  return shapes.find((s) => s.paths.some((p) => same(p, words)));
}

/** The verbs of a namespace: one line each, by category, aliases named. */
export function renderNamespace(shapes: CommandShape[], prefix: string[], binary = "spex"): string {
  const rows: { category: string; verb: string; text: string }[] = [];
  for (const s of shapes) {
    if (s.hidden) continue;
    const tails = s.paths.filter((p) => startsWith(p, prefix)).map((p) => p.slice(prefix.length).join(" "));
    if (tails.length === 0) continue;
    const also = tails.length > 1 ? ` (also: ${tails.slice(1).join(", ")})` : "";
    rows.push({ category: s.category || "Commands", verb: tails[0]!, text: `${s.description}${also}` });
  }
  const width = Math.max(...rows.map((r) => r.verb.length));
  const categories = sortCategories(rows.map((r) => r.category));
  const name = [binary, ...prefix].join(" ");
  let out = `${name} <verb>\n`;
  for (const c of categories) {
    out += `\n${c}\n`;
    for (const r of rows.filter((x) => x.category === c).sort((a, b) => a.verb.localeCompare(b.verb, "en"))) {
      out += `  ${r.verb.padEnd(width)}  ${r.text}\n`;
    }
  }
  const own = commandAt(shapes, prefix);
  if (own && !own.hidden) out += `\n\`${name}\` itself is a verb too: \`${name} --help\` describes it.\n`;
  out += `\n\`${name} <verb> --help\` shows a verb's options and examples; \`${binary} help\` lists every command.\n`;
  return out;
}
