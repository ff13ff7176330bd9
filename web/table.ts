// The session table: one <tr> per session, patched in place when its row
// changes, so 500 sessions cost nothing between events. Children sit under
// their parent (tree order); the filter and the archived switch hide rows.
import { age, byId, el } from "./dom";
import type { OkRow, Row } from "./types";
import { rowNote } from "./words";

interface Cells {
  tree: HTMLElement;
  label: HTMLElement;
  short: HTMLElement;
  badge: HTMLElement;
  note: HTMLElement;
  live: HTMLElement;
  branch: HTMLElement;
  age: HTMLElement;
  cost: HTMLElement;
  kids: HTMLElement;
}

interface Placed {
  depth: number;
  kids: number;
}

export class SessionTable {
  readonly rows = new Map<string, Row>();
  private readonly trs = new Map<string, HTMLTableRowElement>();
  private readonly cells = new WeakMap<HTMLTableRowElement, Cells>();
  private readonly placed = new Map<string, Placed>();
  private layoutQueued = false;
  private loadSeen: Set<string> | null = null;
  filterText = "";
  showArchived = false;
  selected: string | null = null;

  constructor(private readonly onSelect: (id: string) => void, private readonly onChange: () => void) {
    setInterval(() => {
      this.rows.forEach((r, id) => {
        const tr = this.trs.get(id);
        if (tr && r.kind === "ok") this.cells.get(tr)!.age.textContent = age(r.createdAt);
      });
    }, 15000);
  }

  label(id: string): string {
    const r = this.rows.get(id);
    return r ? (r.kind === "ok" ? r.label : "(corrupt record)") : id.slice(0, 8);
  }

  /** A full list arrived: rows updated by events while it was in flight are newer, so they stay. */
  beginLoad(): void {
    this.loadSeen = new Set();
  }

  endLoad(fresh: Row[] | null): void {
    const seen = this.loadSeen ?? new Set<string>();
    this.loadSeen = null;
    if (!fresh) return;
    const byId = new Map(fresh.map((r) => [r.id, r]));
    for (const id of [...this.rows.keys()]) if (!byId.has(id) && !seen.has(id)) this.rows.delete(id);
    byId.forEach((r, id) => void (seen.has(id) || this.rows.set(id, r)));
    this.placed.clear();
    this.queueLayout();
  }

  upsert(row: Row): void {
    this.loadSeen?.add(row.id);
    const prev = this.rows.get(row.id);
    this.rows.set(row.id, row);
    const tr = this.trs.get(row.id);
    const reshape = !prev || !tr || prev.parent !== row.parent || this.visible(prev) !== this.visible(row) || !tr.parentNode;
    if (reshape) this.queueLayout();
    else {
      const p = this.placed.get(row.id) ?? { depth: 0, kids: 0 };
      this.fill(tr, row, p.depth, p.kids);
      tr.classList.remove("flash");
      void tr.offsetWidth; // restart the animation
      tr.classList.add("flash");
      this.onChange();
    }
  }

  remove(id: string): void {
    this.loadSeen?.add(id);
    this.rows.delete(id);
    this.queueLayout();
  }

  select(id: string | null): void {
    if (this.selected) this.trs.get(this.selected)?.classList.remove("selected");
    this.selected = id;
    if (id) this.trs.get(id)?.classList.add("selected");
  }

  queueLayout(): void {
    if (this.layoutQueued) return;
    this.layoutQueued = true;
    requestAnimationFrame(() => this.layout());
  }

  private visible(row: Row): boolean {
    if (row.kind === "ok" && row.archived && !this.showArchived) return false;
    if (!this.filterText) return true;
    const hay = [row.id, row.display, ...(row.kind === "ok" ? [row.label, row.branch, row.node, row.group, row.note] : [])].join(" ").toLowerCase();
    return hay.includes(this.filterText);
  }

  /** Tree order: parents before their children, siblings by creation time; a parent cycle still shows every row. */
  private order(): { id: string; depth: number; kids: number }[] {
    const shown = [...this.rows.values()].filter((r) => this.visible(r));
    const ids = new Set(shown.map((r) => r.id));
    const kids = new Map<string, Row[]>();
    const roots: Row[] = [];
    for (const r of shown) {
      const p = r.kind === "ok" ? r.parent : "";
      if (p && ids.has(p) && p !== r.id) kids.set(p, [...(kids.get(p) ?? []), r]);
      else roots.push(r);
    }
    const byAge = (a: Row, b: Row) => {
      const x = a.createdAt ?? "";
      const y = b.createdAt ?? "";
      return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
    };
    const out: { id: string; depth: number; kids: number }[] = [];
    const seen = new Set<string>();
    const walk = (r: Row, depth: number) => {
      if (seen.has(r.id)) return;
      seen.add(r.id);
      const children = (kids.get(r.id) ?? []).sort(byAge);
      out.push({ id: r.id, depth, kids: children.length });
      for (const k of children) walk(k, depth + 1);
    };
    for (const r of roots.sort(byAge)) walk(r, 0);
    for (const r of shown) walk(r, 0);
    return out;
  }

  private layout(): void {
    this.layoutQueued = false;
    const next = this.order();
    const body = byId<HTMLTableSectionElement>("rows");
    let cursor = body.firstChild;
    for (const n of next) {
      const tr = this.trs.get(n.id) ?? this.make(n.id);
      const p = this.placed.get(n.id);
      if (!p || p.depth !== n.depth || p.kids !== n.kids || !tr.dataset.filled) {
        this.fill(tr, this.rows.get(n.id)!, n.depth, n.kids);
        tr.dataset.filled = "1";
        this.placed.set(n.id, { depth: n.depth, kids: n.kids });
      }
      if (tr === cursor) cursor = cursor.nextSibling;
      else body.insertBefore(tr, cursor);
    }
    while (cursor) {
      const gone = cursor;
      cursor = cursor.nextSibling;
      body.removeChild(gone);
    }
    for (const id of [...this.trs.keys()]) {
      if (!this.rows.has(id)) {
        this.trs.delete(id);
        this.placed.delete(id);
      }
    }
    byId("empty").hidden = next.length > 0;
    this.onChange();
  }

  private make(id: string): HTMLTableRowElement {
    const tr = el("tr", "row");
    tr.dataset.id = id;
    const cell = (cls: string) => tr.appendChild(el("td", cls));
    const labelCell = cell("c-label");
    const c: Cells = {
      tree: labelCell.appendChild(el("span", "tree")),
      label: labelCell.appendChild(el("span", "label")),
      short: labelCell.appendChild(el("span", "short")),
      badge: cell("c-status").appendChild(el("span", "badge")),
      note: cell("c-note"),
      live: cell("c-live"),
      branch: cell("c-branch"),
      age: cell("c-age"),
      cost: cell("c-cost"),
      kids: cell("c-kids"),
    };
    this.cells.set(tr, c);
    tr.addEventListener("click", () => this.onSelect(id));
    if (id === this.selected) tr.classList.add("selected");
    this.trs.set(id, tr);
    return tr;
  }

  private fill(tr: HTMLTableRowElement, row: Row, depth: number, kids: number): void {
    const c = this.cells.get(tr)!;
    c.tree.textContent = depth > 0 ? `${"  ".repeat(depth - 1)}└ ` : "";
    c.label.textContent = row.kind === "ok" ? row.label : "(corrupt record)";
    c.short.textContent = row.shortId;
    c.badge.textContent = row.display;
    c.badge.className = `badge st-${row.display}`;
    c.note.textContent = row.kind === "ok" ? rowNote(row) : row.error;
    c.note.title = c.note.textContent;
    c.live.textContent = row.liveness;
    c.live.className = `c-live live-${row.liveness}`;
    c.branch.textContent = row.kind === "ok" ? row.branch : row.file;
    c.age.textContent = row.kind === "ok" ? age(row.createdAt) : "";
    c.cost.textContent = row.kind === "ok" ? costText(row) : "";
    c.kids.textContent = kids ? String(kids) : "";
    tr.dataset.display = row.display;
    tr.title = row.kind === "ok" ? row.preview : row.error;
  }
}

/** What the session cost so far ("$0.42"), its tokens where its model has no price, "" before any usage (ls's COST column). */
function costText(row: OkRow): string {
  const u = row.usage;
  if (!u) return "";
  if (u.costUsd === null) return `${u.total} tok`;
  return u.costUsd > 0 && u.costUsd < 0.01 ? "<$0.01" : `$${u.costUsd.toFixed(2)}`;
}
