// Codex runs project hooks (.codex/hooks.json) only once each handler is
// trusted in $CODEX_HOME/config.toml; otherwise a "Hooks need review" dialog
// blocks the session. This computes Codex's trust entry for a handler and
// edits the TOML text in place: new tables are appended, a table already there
// gets its trusted_hash line replaced, and every other byte is kept.
import { sha256Hex } from "../hash";
import { tomlString } from "./toml";

/** Events whose handler timeout Codex clamps to 3 s before hashing it. */
const CLAMPED = new Set(["session_end", "interrupt"]);
export const CODEX_CLAMPED_TIMEOUT = 3;

export interface CodexHandler {
  /** Absolute (real) path of the hooks.json that declares it. */
  hooksFile: string;
  /** Event as written in hooks.json, e.g. "SessionStart". */
  event: string;
  command: string;
  timeout: number;
  matcher?: string;
  /** Index of the group within the event, and of the handler within the group. */
  group: number;
  handler: number;
}

export interface TrustEntry {
  key: string;
  hash: string;
}

/** "SessionStart" → "session_start", the spelling of Codex's trust keys. */
export function codexEventSnake(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

/**
 * Codex's trust entry for one handler: the key names file, event, group and
 * handler; the hash is SHA-256 of the compact sorted-key JSON of the event
 * with that one handler (timeout as Codex clamps it).
 */
export function codexHookTrust(h: CodexHandler): TrustEntry {
  const snake = codexEventSnake(h.event);
  const timeout = CLAMPED.has(snake) ? Math.min(h.timeout, CODEX_CLAMPED_TIMEOUT) : h.timeout;
  const doc: Record<string, unknown> = { event_name: snake, hooks: [{ async: false, command: h.command, timeout, type: "command" }] };
  if (h.matcher !== undefined) doc.matcher = h.matcher;
  const hex = sha256Hex(JSON.stringify(sortKeys(doc)));
  return { key: `${h.hooksFile}:${snake}:${h.group}:${h.handler}`, hash: `sha256:${hex}` };
}

type HooksDoc = { hooks?: Record<string, { matcher?: string; hooks?: { command?: string; timeout?: number }[] }[]> };

/** The handlers of a Claude-shaped hooks document, optionally only those whose command passes `keep`. */
export function codexHandlersOf(hooksFile: string, doc: HooksDoc, keep: (command: string) => boolean = () => true): CodexHandler[] {
  const out: CodexHandler[] = [];
  for (const [event, groups] of Object.entries(doc.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((g, group) =>
      (g?.hooks ?? []).forEach((h, handler) => {
        const command = h?.command ?? "";
        if (keep(command)) out.push({ hooksFile, event, command, timeout: h?.timeout ?? 600, matcher: g.matcher, group, handler });
      }),
    );
  }
  return out;
}

// ------------------------------------------------------------- TOML editing

/** Parse a TOML dotted key starting at s[i]; returns its segments and where it ended. */
function parseDottedKey(s: string, i: number): { parts: string[]; end: number } | undefined {
  const parts: string[] = [];
  for (;;) {
    while (s[i] === " " || s[i] === "\t") i++;
    const c = s[i];
    if (c === '"') {
      let out = "";
      i++;
      for (;;) {
        const d = s[i];
        if (d === undefined) return undefined;
        if (d === '"') break;
        if (d === "\\") {
          const e = s[i + 1];
          const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" };
          if (e !== undefined && e in simple) {
            out += simple[e];
            i += 2;
            continue;
          }
          const width = e === "u" ? 4 : e === "U" ? 8 : e === "x" ? 2 : 0;
          const hex = s.slice(i + 2, i + 2 + width);
          if (!width || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== width) return undefined;
          out += String.fromCodePoint(parseInt(hex, 16));
          i += 2 + width;
          continue;
        }
        out += d;
        i++;
      }
      parts.push(out);
      i++;
    } else if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) return undefined;
      parts.push(s.slice(i + 1, close));
      i = close + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
      if (!m) return undefined;
      parts.push(m[0]);
      i += m[0].length;
    }
    while (s[i] === " " || s[i] === "\t") i++;
    if (s[i] !== ".") return { parts, end: i };
    i++;
  }
}

/** The key path of a `[table]` header line, or undefined when the line is not one. */
export function tableHeader(line: string): string[] | undefined {
  const m = /^[ \t]*\[(?!\[)/.exec(line);
  if (!m) return undefined;
  const key = parseDottedKey(line, m[0].length);
  if (!key || line[key.end] !== "]") return undefined;
  return /^[ \t]*(#.*)?\r?$/.test(line.slice(key.end + 1)) ? key.parts : undefined;
}

export interface Line {
  text: string;
  /** The table this line belongs to (its header's path; [] before the first header). */
  table: string[];
  header: boolean;
  /** The line starts inside a multi-line string. */
  inString: boolean;
}

/** Split into lines, noting headers and the table each line is in; lines inside multi-line strings are never headers. */
export function scan(text: string): Line[] {
  const out: Line[] = [];
  let table: string[] = [];
  let inString: string | undefined;
  for (const raw of text.split("\n")) {
    let header = false;
    if (inString === undefined) {
      const parts = tableHeader(raw);
      if (parts) {
        table = parts;
        header = true;
      }
    }
    out.push({ text: raw, table, header, inString: inString !== undefined });
    if (header) continue;
    for (const delim of ['"""', "'''"]) {
      if (inString !== undefined && inString !== delim) continue;
      if (raw.split(delim).length % 2 === 0) inString = inString === undefined ? delim : undefined;
    }
  }
  return out;
}

export const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Does the document close `hooks.state` to new `[hooks.state."…"]` headers (an inline table)? */
function inlineHooksState(lines: Line[]): boolean {
  return lines.some(
    (l) =>
      !l.header &&
      !l.inString &&
      ((l.table.length === 0 && /^[ \t]*("?)hooks\1[ \t]*(=|\.[ \t]*("?)state\3[ \t]*=)/.test(l.text)) ||
        (same(l.table, ["hooks"]) && /^[ \t]*("?)state\1[ \t]*=/.test(l.text))),
  );
}

export interface TrustEdit {
  text: string;
  /** Keys whose trusted_hash was added or replaced. */
  written: string[];
  /** Keys left alone because the document defines them in a form spex does not edit. */
  skipped: string[];
}

/**
 * Record trust for each entry in a config.toml text. Idempotent; a key that
 * is already trusted with the same hash changes nothing.
 */
export function upsertCodexTrust(text: string, entries: TrustEntry[]): TrustEdit {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = scan(text);
  const written: string[] = [];
  const skipped: string[] = [];
  const appended: string[] = [];
  const closed = inlineHooksState(lines);
  for (const { key, hash } of entries) {
    const want = `trusted_hash = ${tomlString(hash)}`;
    const at = lines.findIndex((l) => l.header && same(l.table, ["hooks", "state", key]));
    if (at >= 0) {
      let end = at + 1;
      while (end < lines.length && !lines[end]!.header) end++;
      const line = lines.slice(at + 1, end).findIndex((l) => /^[ \t]*(["']?)trusted_hash\1[ \t]*=/.test(l.text));
      if (line >= 0) {
        const l = lines[at + 1 + line]!;
        const indent = /^[ \t]*/.exec(l.text)![0];
        const cr = l.text.endsWith("\r") ? "\r" : "";
        const next = `${indent}${want}${cr}`;
        if (l.text === next) continue;
        l.text = next;
      } else {
        const cr = lines[at]!.text.endsWith("\r") ? "\r" : "";
        lines.splice(at + 1, 0, { text: want + cr, table: lines[at]!.table, header: false, inString: false });
      }
      written.push(key);
      continue;
    }
    // Defined some other way (dotted keys, an inline table, a comment naming it): adding a header could duplicate it.
    const named = lines.some((l) => !l.inString && (l.text.includes(tomlString(key)) || l.text.includes(`'${key}'`)));
    if (closed || named) {
      skipped.push(key);
      continue;
    }
    appended.push(`[hooks.state.${tomlString(key)}]`, want, "");
    written.push(key);
  }
  let out = lines.map((l) => l.text).join("\n");
  if (appended.length > 0) {
    if (out !== "" && !out.endsWith("\n")) out += eol;
    if (out !== "" && !out.endsWith(`${eol}${eol}`)) out += eol;
    out += appended.join(eol);
  }
  return { text: out, written, skipped };
}

/**
 * Drop the trust tables `stale` names as spex's own and dead: a table goes
 * only when it is `[hooks.state."…"]` holding nothing but its trusted_hash
 * line (blank lines aside; a comment there may be the user's note on what
 * follows), and `stale(key, hash)` says so. Every other byte is kept.
 */
export function pruneCodexTrust(text: string, stale: (key: string, hash: string) => boolean): { text: string; removed: string[] } {
  const lines = scan(text);
  const removed: string[] = [];
  const drop = new Set<number>();
  for (let at = 0; at < lines.length; at++) {
    const l = lines[at]!;
    if (!l.header || l.table.length !== 3 || l.table[0] !== "hooks" || l.table[1] !== "state") continue;
    let end = at + 1;
    while (end < lines.length && !lines[end]!.header) end++;
    const body = lines.slice(at + 1, end).filter((b) => b.text.trim() !== "");
    const m = body.length === 1 ? /^[ \t]*(["']?)trusted_hash\1[ \t]*=[ \t]*"(sha256:[0-9a-f]{64})"[ \t]*\r?$/.exec(body[0]!.text) : null;
    if (!m || !stale(l.table[2]!, m[2]!)) continue;
    // The "" after a final newline is the end of the file, not the table's: kept, so the file still ends in one.
    for (let i = at; i < end; i++) if (!(i === lines.length - 1 && lines[i]!.text === "")) drop.add(i);
    removed.push(l.table[2]!);
  }
  if (removed.length === 0) return { text, removed };
  return { text: lines.filter((_, i) => !drop.has(i)).map((l) => l.text).join("\n"), removed };
}

/** The trust_level the config gives a project folder (`[projects."<dir>"]`), if any. */
export function codexProjectTrustLevel(text: string, dir: string): string | undefined {
  const lines = scan(text);
  const at = lines.findIndex((l) => l.header && same(l.table, ["projects", dir]));
  if (at < 0) return undefined;
  for (let i = at + 1; i < lines.length && !lines[i]!.header; i++) {
    const m = /^[ \t]*(["']?)trust_level\1[ \t]*=[ \t]*(["'])([^"']*)\2/.exec(lines[i]!.text);
    if (m) return m[3];
  }
  return undefined;
}
