// The human `ls` table: children indented under their parent, a GROUP column
// when any shown session is filed in a group, archived rows marked, a corrupt
// row's file on a line of its own. On a terminal it is fitted to the width
// (the prompt preview is cut first, the id never) and coloured by status.
// The status says what a person would otherwise have to ask for: a proposal
// whose agent is gone (`review · offline`), a branch that already landed
// (`merged`).
import type { ListRow } from "../sessions";
import { formatTable } from "./output";
import { costWord } from "../attention/usage/summary";

export interface SessionTableOptions {
  /** Terminal width to fit, or undefined when not writing to a terminal. */
  width?: number;
  color: boolean;
  /** What AGE is counted from (ms since the epoch); now unless a test fixes it. */
  now?: number;
}

const SGR = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const green = SGR("32");
const yellow = SGR("33");
const red = SGR("31");
const magenta = SGR("35");
const cyan = SGR("36");
const dim = SGR("2");
const bold = SGR("1");

/** A status's colour, by name: the board (Ink) and this table paint from the same map. */
export type StatusTone = "green" | "cyan" | "yellow" | "red" | "magenta" | "dim" | "plain";

/** One colour per status family: busy, needs a person, finished, not running. */
export const STATUS_TONE: Record<string, StatusTone> = {
  working: "green",
  starting: "cyan",
  queued: "cyan",
  idle: "plain",
  asking: "yellow",
  parked: "yellow",
  error: "red",
  corrupt: "red",
  unreadable: "red",
  review: "magenta",
  done: "magenta",
  "close-pending": "magenta",
  setup_failed: "red",
  offline: "dim",
  retired: "dim",
};

const TONE_SGR: Record<StatusTone, (t: string) => string> = { green, cyan, yellow, red, magenta, dim, plain: (t) => t };
const STATUS_COLOR = (status: string) => TONE_SGR[STATUS_TONE[status] ?? "plain"];

/** Statuses that stand for the agent's proposal, which outlives the agent itself. */
const PROPOSALS = new Set(["review", "done", "close-pending"]);

/** The status as a row shows it: `queued #N`, `merged`, `· offline` when the agent of a proposal is gone, `· <why>` it is gone, `(archived)`. */
export function statusWord(r: ListRow): string {
  if (r.kind === "corrupt") return r.display;
  let shown = r.queuePosition !== null ? `queued #${r.queuePosition}` : r.display;
  // A merge proposal that landed is no longer waiting for review.
  if (r.merged) shown = r.display === "review" ? "merged" : `${shown} · merged`;
  if (r.liveness === "offline" && PROPOSALS.has(r.display)) shown = `${shown} · offline`;
  // Why the agent is gone (machine_restarted, tmux_server_gone, agent_exited, killed: lib/survive).
  if (r.offlineReason) shown = `${shown} · ${r.offlineReason}`;
  return r.archived ? `${shown} (archived)` : shown;
}

/** How long ago, in the largest whole unit: `40s`, `12m`, `5h`, `3d`. */
export function ageOf(createdAt: string, now: number): string {
  const at = Date.parse(createdAt);
  if (Number.isNaN(at)) return "";
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/**
 * The PROMPT cell of an unnamed session, whose LABEL already is the prompt's
 * first line (its title): the rest of the preview after it, so the title is
 * shown once. A preview that does not start with the title (a mention the
 * title dropped) is shown whole.
 */
export function promptBeyondTitle(preview: string, title: string): string {
  const cut = title.endsWith("…");
  const head = cut ? title.slice(0, -1) : title;
  const flat = preview.replace(/\[\[([^\[\]\n]+?)\]\]/gu, "$1");
  if (head === "" || !flat.startsWith(head)) return preview;
  if (!cut) return flat.slice(head.length).trim();
  // A title cut inside a word: the rest starts at that word, after an ellipsis.
  const wordStart = flat.lastIndexOf(" ", head.length) + 1;
  const rest = flat.slice(wordStart).trim();
  return rest === "" ? "" : `…${rest}`;
}

/** Rows in tree order: each parent followed by its children (depth first), siblings in listing order. */
export function treeOrder(rows: ListRow[]): { row: ListRow; depth: number }[] {
  const shown = new Set(rows.map((r) => r.id));
  const parentOf = (r: ListRow) => (r.kind === "ok" && r.parent && r.parent !== r.id && shown.has(r.parent) ? r.parent : "");
  const children = new Map<string, ListRow[]>();
  for (const r of rows) {
    const p = parentOf(r);
    if (p) children.set(p, [...(children.get(p) ?? []), r]);
  }
  const out: { row: ListRow; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (r: ListRow, depth: number) => {
    if (seen.has(r.id)) return; // a parent cycle in hand-edited records must not loop
    seen.add(r.id);
    out.push({ row: r, depth });
    for (const c of children.get(r.id) ?? []) visit(c, depth + 1);
  };
  for (const r of rows) if (!parentOf(r)) visit(r, 0);
  for (const r of rows) visit(r, 0); // members of a cycle, which have no root
  return out;
}

export function renderSessionTable(rows: ListRow[], opts: SessionTableOptions): string {
  const ordered = treeOrder(rows);
  const grouped = rows.some((r) => r.kind === "ok" && r.group !== "");
  const now = opts.now ?? Date.now();
  // A COST column once any shown session has usage: dollars, or tokens where the model has no price.
  const costed = rows.some((r) => r.kind === "ok" && r.usage);
  const costOf = (r: ListRow) => (r.kind === "ok" ? costWord(r.usage) : "");
  const headers = ["ID", "STATUS", "AGE", ...(costed ? ["COST"] : []), ...(grouped ? ["GROUP"] : []), "LABEL", "BRANCH", "PROMPT"];
  const label = headers.indexOf("LABEL");
  const group = headers.indexOf("GROUP");
  const cells = ordered.map(({ row: r, depth }) => {
    const indent = depth > 0 ? `${"  ".repeat(depth - 1)}└ ` : "";
    if (r.kind === "corrupt") return [r.shortId, r.display, "", ...(costed ? [""] : []), ...(grouped ? [""] : []), `${indent}(${r.display} record)`, "", r.error];
    const prompt = r.name === "" ? promptBeyondTitle(r.preview, r.title) : r.preview;
    return [r.shortId, statusWord(r), ageOf(r.createdAt, now), ...(costed ? [costOf(r)] : []), ...(grouped ? [r.group] : []), `${indent}${r.label}`, r.branch, prompt];
  });
  const notes = ordered.map(({ row: r }) => (r.kind === "corrupt" ? `file: ${r.file}` : undefined));
  const paint = opts.color
    ? (row: number, column: number, text: string) => {
        if (row < 0) return bold(text);
        const r = ordered[row]!.row;
        if (column === 1) return STATUS_COLOR(r.display)(text);
        return r.kind === "ok" && r.archived ? dim(text) : text;
      }
    : undefined;
  // Cut the prompt preview first, then the label and branch a little, then the prompt again; never the id or status.
  const prompt = headers.length - 1;
  const branch = headers.length - 2;
  const shrink = [
    { column: prompt, min: 24 },
    { column: label, min: 32 },
    { column: branch, min: 24 },
    { column: prompt, min: 12 },
    { column: label, min: 20 },
    { column: branch, min: 16 },
    ...(grouped ? [{ column: group, min: 8 }] : []),
    { column: prompt, min: 0 },
    { column: label, min: 12 },
    { column: branch, min: 12 },
    // A very narrow terminal: drop the branch and the group rather than wrap.
    { column: branch, min: 0 },
    ...(grouped ? [{ column: group, min: 0 }] : []),
    { column: label, min: 8 },
  ];
  return formatTable(headers, cells, { width: opts.width, shrink, paint, notes });
}
