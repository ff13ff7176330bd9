// Names that are the session's own (DESIGN.md §1.8): actor mentions and
// UUID-shaped tokens are stripped before a title or slug is derived, so a
// prompt about another session never names this one after it. A `[[topic]]`
// keeps its words in the title ("add rate limiting to the api") but not in a
// slug, which takes the node from the first mention instead.

const TOPIC_MENTION = /\[\[([^\[\]\n]+?)\]\]/gu;
const ACTOR_MENTION = /(^|[^\p{L}\p{N}_])@[\p{L}\p{N}_][\p{L}\p{N}_.\-/]*/gu;
const UUID_TOKEN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/giu;

export interface Mentions {
  actors: string[];
  topics: string[];
}

export function findMentions(prompt: string): Mentions {
  const topics = [...prompt.matchAll(TOPIC_MENTION)].map((m) => m[1]!.trim()).filter(Boolean);
  const actors = [...prompt.matchAll(ACTOR_MENTION)].map((m) => m[0].slice(m[1]!.length + 1));
  return { actors, topics };
}

/** The session's node: the first `[[id]]` mention, and nothing else. */
export function nodeOf(prompt: string): string {
  return findMentions(prompt).topics[0] ?? "";
}

/** The prompt with actor mentions, topic mentions and UUID-shaped tokens removed. */
export function stripIdentityTokens(prompt: string): string {
  return prompt.replace(TOPIC_MENTION, " ").replace(ACTOR_MENTION, "$1 ").replace(UUID_TOKEN, " ");
}

const TITLE_MAX = 72;

/** The first non-empty line of already cleaned text, whitespace collapsed, bounded. */
function firstLine(cleaned: string): string {
  for (const line of cleaned.split(/\r?\n/)) {
    const t = line.replace(/[\s\u0000-\u001f\u007f]+/gu, " ").trim();
    if (t) return [...t].length > TITLE_MAX ? [...t].slice(0, TITLE_MAX - 1).join("") + "…" : t;
  }
  return "";
}

/** The title: the first line of the prompt with each `[[topic]]` reduced to its words, actors and UUIDs removed. */
export function titleOf(prompt: string): string {
  return firstLine(stripIdentityTokens(prompt.replace(TOPIC_MENTION, "$1")));
}

const SLUG_MAX = 40;

/** Lowercase, unicode letters and digits kept, anything else becomes one dash. */
export function slugify(text: string): string {
  const words = text.toLowerCase().normalize("NFC").match(/[\p{L}\p{N}]+/gu) ?? [];
  let slug = "";
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if ([...next].length > SLUG_MAX) {
      if (!slug) slug = [...w].slice(0, SLUG_MAX).join("");
      break;
    }
    slug = next;
  }
  return slug;
}

/** The slug base: the node when the prompt names one, else the title; fallback `session`. */
export function slugOf(prompt: string): string {
  const node = nodeOf(prompt);
  return (node && slugify(node)) || slugify(firstLine(stripIdentityTokens(prompt))) || "session";
}

export function shortId(id: string, length = 4): string {
  return id.replace(/-/g, "").slice(0, length);
}

/** What a person sees: the display name when set, else the title, else the short id. */
export function labelOf(r: { name: string; title: string; session_id: string }): string {
  return r.name || r.title || shortId(r.session_id, 8);
}

/** A row's preview is taken from this many of the prompt's first bytes, whatever its length. */
export const PREVIEW_BYTES = 512;

/** The preview a row shows for a prompt: its first PREVIEW_BYTES bytes, decoded as a row reads them, on one line. */
export function previewOfPrompt(prompt: string): string {
  return previewOf(Buffer.from(prompt, "utf8").toString("utf8", 0, PREVIEW_BYTES));
}

// JS `\s` plus the C0 controls and DEL.
const BLANK_RUNS = /[\s\u0000-\u001f\u007f]+/gu;

/**
 * A one-line preview of a prompt for list rows (bounded, whatever the prompt
 * length): blank runs collapse to one space, at most `max` code points. `ls`
 * runs it for every row on the prompt's first bytes only; the regular
 * expression runs natively, where a hand scan of each character ran in the
 * interpreter (a run's code is not JIT-compiled, cmd/main.ts).
 */
export function previewOf(promptHead: string, max = 100): string {
  const line = promptHead.replace(BLANK_RUNS, " ").trim();
  // Fewer code units than the bound: fewer code points too.
  if (line.length <= max) return line;
  const points = Array.from(line);
  return points.length > max ? points.slice(0, max - 1).join("") + "…" : line;
}

/** The prompt seam (DESIGN.md §1.7): text handed to an agent never begins with `-`. */
export function promptSeam(text: string): string {
  return text.startsWith("-") ? ` ${text}` : text;
}

export { editDistance } from "./distance";
