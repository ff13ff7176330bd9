// The session table's columns: what each shows of a row, in one line each
// where it can be. A new field on the rows (usage, ports, an offline reason)
// is one more entry here: the table builds its header, cells, sorting and
// narrow-screen hiding from this list and nothing else.
import { age, el, showControls } from "./dom";
import type { Row } from "./types";
import { firstPort, portsText, rowNote, statusTags } from "./words";

/** Where a row sits in the tree, besides the row itself. */
export interface Place {
  depth: number;
  kids: number;
}

export interface Column {
  /** Class of the header and cells (`c-<key>`), and the sort key's name. */
  key: string;
  header: string;
  /** Hidden below 760 px. */
  wide?: boolean;
  /** An extra class for the cell (a colour by value). */
  tone?(row: Row): string;
  /** The cell's text (and tooltip); `draw` instead for cells with parts. */
  text?(row: Row, place: Place): string;
  /** Fill the (emptied) cell. */
  draw?(td: HTMLTableCellElement, row: Row, place: Place): void;
  /** What sorting by this column compares (strings compare as text, numbers as numbers). */
  sort?(row: Row): string | number;
}

const ok = <T>(row: Row, pick: (r: Extract<Row, { kind: "ok" }>) => T, otherwise: T): T => (row.kind === "ok" ? pick(row) : otherwise);

// Names, notes and branches come from agents and scripts: a direction control in one is shown, not obeyed.
export const labelOf = (row: Row): string => (row.kind === "ok" ? showControls(row.label) : "(corrupt record)");

/** Sorting by status: what needs you, what runs, what rests, what is gone. */
const STATUS_ORDER = ["asking", "error", "review", "corrupt", "unreadable", "starting", "working", "queued", "parked", "idle", "close-pending", "done", "offline", "retired"];

export const COLUMNS: Column[] = [
  {
    key: "label",
    header: "session",
    draw(td, row, place) {
      td.appendChild(el("span", "tree", place.depth > 0 ? `${"  ".repeat(place.depth - 1)}└ ` : ""));
      td.appendChild(el("span", "label", labelOf(row)));
      td.appendChild(el("span", "short", row.shortId));
    },
    sort: (row) => labelOf(row).toLowerCase(),
  },
  {
    key: "status",
    header: "status",
    // The badge is the display status; beside it what `spex session ls` adds to the word (lib/cli/session-table statusWord).
    draw(td, row) {
      td.appendChild(el("span", `badge st-${row.display}`, row.display));
      // Why an agent is gone is the wide live column's; below 760 px, where that column hides, it joins the tags here.
      for (const tag of statusTags(row)) td.appendChild(el("span", row.kind === "ok" && tag === row.offlineReason ? "tag narrow" : "tag", tag));
    },
    sort: (row) => STATUS_ORDER.indexOf(row.display) + 1 || STATUS_ORDER.length + 1,
  },
  { key: "note", header: "question / note", text: (row) => showControls(row.kind === "ok" ? rowNote(row) : row.error) },
  { key: "live", header: "live", wide: true, text: (row) => (row.kind === "ok" && row.offlineReason ? `${row.liveness} · ${row.offlineReason}` : row.liveness), tone: (row) => `live-${row.liveness}`, sort: (row) => row.liveness },
  { key: "branch", header: "branch", wide: true, text: (row) => showControls(row.kind === "ok" ? row.branch : row.file), sort: (row) => ok(row, (r) => r.branch, "") },
  { key: "age", header: "age", wide: true, text: (row) => ok(row, (r) => age(r.createdAt), ""), sort: (row) => -Date.parse(row.createdAt ?? "") || 0 },
  { key: "cost", header: "cost", wide: true, text: (row) => ok(row, costText, ""), sort: (row) => ok(row, (r) => r.usage?.costUsd ?? r.usage?.total ?? -1, -1) },
  // The session's port block while it runs (docs/workspace.md): where its dev server listens.
  { key: "ports", header: "ports", wide: true, text: (row) => ok(row, portsText, ""), sort: (row) => ok(row, firstPort, 0) },
  { key: "kids", header: "kids", wide: true, text: (_row, place) => (place.kids ? String(place.kids) : "") },
];

/** What the session cost so far ("$0.42"), its tokens where its model has no price, "" before any usage: `spex session ls`'s COST column. */
function costText(row: Extract<Row, { kind: "ok" }>): string {
  const u = row.usage;
  if (!u) return "";
  if (u.costUsd === null) return `${u.total} tok`;
  return u.costUsd > 0 && u.costUsd < 0.01 ? "<$0.01" : `$${u.costUsd.toFixed(2)}`;
}
