// The session table: one <tr> per session in the order web/order.ts gives
// (a tree; triage and a sorted column on top), the filter, the status pills
// and the archived switch hiding rows, a checkbox per row for bulk actions.
// A row is drawn from the last row received, whole: each <tr> remembers
// which row object (and tree place) it was drawn from, and is drawn again
// whenever that differs, wherever the row was meanwhile (hidden by a filter,
// archived, turned corrupt). Rows that did not change keep their elements
// untouched, so 500 sessions cost nothing between events.
import { COLUMNS, type Place, labelOf } from "./columns";
import { byId, el, showControls } from "./dom";
import { NEEDS_YOU, type Sort, orderRows } from "./order";
import type { Row } from "./types";

interface Drawn extends Place {
  row: Row;
}

/** The leading checkbox cell; the data cells follow it. */
const PICK = 1;

export class SessionTable {
  readonly rows = new Map<string, Row>();
  private readonly trs = new Map<string, HTMLTableRowElement>();
  private readonly drawn = new WeakMap<HTMLTableRowElement, Drawn>();
  /** Rows an event changed since the last layout: they flash once drawn. */
  private readonly changed = new Set<string>();
  private layoutQueued = false;
  private loadSeen: Set<string> | null = null;
  /** The rows shown, in order (what the keyboard walks). */
  private shown: string[] = [];
  /** The row Tab lands on (roving tabindex: one row is in the tab order). */
  private current: string | null = null;
  /** The keyboard has been on a row: Tab goes back to it. Until then Tab lands on the first row as the list is now ordered. */
  private currentVisited = false;
  /** Rows ticked for a bulk action. */
  readonly picked = new Set<string>();
  filterText = "";
  /** "" for all, "needs-you", or one display status (the pills). */
  statusFilter = "";
  showArchived = false;
  triage = true;
  sort: Sort | null = null;
  selected: string | null = null;

  constructor(private readonly onSelect: (id: string) => void, private readonly onChange: () => void) {
    this.makeHeader();
    byId("rows").addEventListener("keydown", (ev) => this.key(ev));
    // Ages move with the clock, not with events: redraw that column in place.
    const ageColumn = COLUMNS.findIndex((c) => c.key === "age");
    setInterval(() => {
      for (const tr of this.trs.values()) {
        const d = this.drawn.get(tr);
        if (d && ageColumn >= 0) this.drawCell(tr, ageColumn, d.row, d);
      }
    }, 15000);
  }

  label(id: string): string {
    const r = this.rows.get(id);
    return r ? labelOf(r) : id.slice(0, 8);
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
    this.queueLayout();
  }

  upsert(row: Row): void {
    this.loadSeen?.add(row.id);
    if (this.rows.has(row.id)) this.changed.add(row.id);
    this.rows.set(row.id, row);
    this.queueLayout();
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

  /** Lay out on the next frame (several changes make one layout); a hidden tab, where frames stop, on a timer. */
  queueLayout(): void {
    if (this.layoutQueued) return;
    this.layoutQueued = true;
    if (document.hidden) setTimeout(() => this.layout(), 50);
    else requestAnimationFrame(() => this.layout());
  }

  /** Counted by the pills: what the archived switch lets through, before the filter and the pills. */
  counted(row: Row): boolean {
    return !(row.kind === "ok" && row.archived && !this.showArchived);
  }

  visible(row: Row): boolean {
    if (!this.counted(row)) return false;
    if (this.statusFilter === "needs-you" ? !(NEEDS_YOU as readonly string[]).includes(row.display) : this.statusFilter && row.display !== this.statusFilter) return false;
    if (!this.filterText) return true;
    const hay = [row.id, row.display, ...(row.kind === "ok" ? [row.label, row.branch, row.node, row.group, row.note] : [])].join(" ").toLowerCase();
    return hay.includes(this.filterText);
  }

  private layout(): void {
    if (!this.layoutQueued) return;
    this.layoutQueued = false;
    if (this.rows.size) performance.mark("spex:layout");
    const next = orderRows([...this.rows.values()].filter((r) => this.visible(r)), { triage: this.triage, sort: this.sort });
    const body = byId<HTMLTableSectionElement>("rows");
    // A row moved in the DOM (its session started needing you and went to the top) loses the keyboard: it is given back.
    const active = document.activeElement;
    const focused = active instanceof HTMLTableRowElement && active.parentNode === body ? active : null;
    let cursor = body.firstChild;
    for (const n of next) {
      const row = this.rows.get(n.id)!;
      const tr = this.trs.get(n.id) ?? this.make(n.id);
      const was = this.drawn.get(tr);
      if (!was || was.row !== row || was.depth !== n.depth || was.kids !== n.kids) {
        this.draw(tr, row, n);
        if (was && this.changed.has(n.id)) this.flash(tr);
      }
      if (tr === cursor) cursor = cursor.nextSibling;
      else body.insertBefore(tr, cursor);
    }
    this.changed.clear();
    this.shown = next.map((n) => n.id);
    const keep = this.currentVisited && this.current && this.shown.includes(this.current) ? this.current : undefined;
    this.setCurrent(keep ?? (this.selected && this.shown.includes(this.selected) ? this.selected : (this.shown[0] ?? null)));
    while (cursor) {
      const gone = cursor;
      cursor = cursor.nextSibling;
      body.removeChild(gone);
    }
    if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
    for (const id of [...this.trs.keys()]) if (!this.rows.has(id)) this.trs.delete(id);
    // A selection is of what is shown: rows filtered away or gone leave it.
    for (const id of [...this.picked]) if (!this.shown.includes(id)) this.picked.delete(id);
    this.showPicks();
    byId("empty").hidden = next.length > 0;
    this.onChange();
    if (next.length) performance.mark("spex:rows-drawn");
  }

  // --- header: sorting, picking all ----------------------------------------

  private makeHeader(): void {
    const heads = byId("heads");
    const pickAll = el("input");
    pickAll.type = "checkbox";
    pickAll.id = "pick-all";
    pickAll.setAttribute("aria-label", "select every session shown");
    pickAll.addEventListener("change", () => {
      for (const id of this.shown) pickAll.checked ? this.picked.add(id) : this.picked.delete(id);
      this.showPicks();
      this.onChange();
    });
    heads.appendChild(el("th", "c-pick")).appendChild(pickAll);
    for (const c of COLUMNS) {
      const th = heads.appendChild(el("th", `c-${c.key}${c.wide ? " wide" : ""}`));
      if (!c.sort) {
        th.textContent = c.header;
        continue;
      }
      const b = th.appendChild(el("button", "sort", c.header));
      b.type = "button";
      b.title = `sort by ${c.header}`;
      b.addEventListener("click", () => this.sortBy(c.key));
    }
  }

  /** By this column, then the other way, then back to the tree's own order. */
  sortBy(key: string): void {
    const s = this.sort;
    this.sort = s?.key !== key ? { key, dir: 1 } : s.dir === 1 ? { key, dir: -1 } : null;
    for (const c of COLUMNS) {
      const th = byId("heads").querySelector<HTMLElement>(`th.c-${c.key}`)!;
      if (this.sort?.key === c.key) th.setAttribute("aria-sort", this.sort.dir === 1 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
    this.queueLayout();
  }

  // --- rows ------------------------------------------------------------------

  private make(id: string): HTMLTableRowElement {
    const tr = el("tr", "row");
    tr.dataset.id = id;
    tr.tabIndex = -1;
    const pick = tr.appendChild(el("td", "c-pick")).appendChild(el("input"));
    pick.type = "checkbox";
    pick.tabIndex = -1; // the row is the stop; x ticks it
    pick.addEventListener("click", (ev) => ev.stopPropagation());
    pick.addEventListener("change", () => this.pick(id, pick.checked));
    for (const _c of COLUMNS) tr.appendChild(el("td"));
    tr.addEventListener("click", () => this.onSelect(id));
    tr.addEventListener("focus", () => {
      this.currentVisited = true;
      this.setCurrent(id);
    });
    this.trs.set(id, tr);
    return tr;
  }

  /** The whole row from `row`: every cell, every attribute. */
  private draw(tr: HTMLTableRowElement, row: Row, place: Place): void {
    this.drawn.set(tr, { row, depth: place.depth, kids: place.kids });
    tr.classList.toggle("selected", row.id === this.selected);
    tr.dataset.display = row.display;
    tr.dataset.kind = row.kind;
    if (row.kind === "ok" && row.archived) tr.dataset.archived = "1";
    else delete tr.dataset.archived;
    tr.title = showControls(row.kind === "ok" ? row.preview : row.error);
    tr.querySelector<HTMLInputElement>(".c-pick input")!.setAttribute("aria-label", `select ${labelOf(row)}`);
    for (let i = 0; i < COLUMNS.length; i++) this.drawCell(tr, i, row, place);
  }

  private drawCell(tr: HTMLTableRowElement, i: number, row: Row, place: Place): void {
    const c = COLUMNS[i]!;
    const td = tr.children[i + PICK] as HTMLTableCellElement;
    td.className = `c-${c.key}${c.wide ? " wide" : ""}${c.tone ? ` ${c.tone(row)}` : ""}`;
    td.textContent = "";
    if (c.draw) c.draw(td, row, place);
    else td.textContent = c.text?.(row, place) ?? "";
    td.title = c.text ? td.textContent : "";
  }

  private flash(tr: HTMLTableRowElement): void {
    tr.classList.remove("flash");
    void tr.offsetWidth; // restart the animation
    tr.classList.add("flash");
  }

  // --- the selection for bulk actions ----------------------------------------

  pick(id: string, on: boolean): void {
    if (on) this.picked.add(id);
    else this.picked.delete(id);
    this.showPicks();
    this.onChange();
  }

  clearPicks(): void {
    this.picked.clear();
    this.showPicks();
    this.onChange();
  }

  private showPicks(): void {
    for (const [id, tr] of this.trs) {
      const on = this.picked.has(id);
      tr.classList.toggle("picked", on);
      tr.querySelector<HTMLInputElement>(".c-pick input")!.checked = on;
    }
    const all = byId<HTMLInputElement>("pick-all");
    all.checked = this.shown.length > 0 && this.shown.every((id) => this.picked.has(id));
    all.indeterminate = !all.checked && this.picked.size > 0;
  }

  // --- the keyboard ----------------------------------------------------------

  private setCurrent(id: string | null): void {
    if (this.current && this.current !== id) {
      const was = this.trs.get(this.current);
      if (was) was.tabIndex = -1;
    }
    this.current = id;
    const tr = id ? this.trs.get(id) : undefined;
    if (tr) tr.tabIndex = 0;
  }

  /** Put the keyboard on a row (when it is shown). */
  focusRow(id: string): boolean {
    const tr = this.trs.get(id);
    if (!tr || !tr.isConnected) return false;
    this.setCurrent(id);
    tr.focus();
    return true;
  }

  /** The keyboard onto the list: the row it was on, else the selected one, else the first. */
  focusList(): boolean {
    const id = this.current ?? this.selected ?? this.shown[0];
    return !!id && this.focusRow(id);
  }

  private move(delta: number, from: string): void {
    if (this.shown.length === 0) return;
    const at = this.shown.indexOf(from);
    const next = at < 0 ? 0 : Math.max(0, Math.min(this.shown.length - 1, at + delta));
    this.focusRow(this.shown[next]!);
  }

  /** j/k and the arrows walk the rows, Home/End jump, Enter opens, x (or space) ticks. */
  private key(ev: KeyboardEvent): void {
    if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
    const tr = (ev.target as HTMLElement).closest<HTMLTableRowElement>("tr.row");
    const id = tr?.dataset.id;
    if (!id || ev.target !== tr) return;
    const steps: Record<string, () => void> = {
      j: () => this.move(1, id),
      ArrowDown: () => this.move(1, id),
      k: () => this.move(-1, id),
      ArrowUp: () => this.move(-1, id),
      Home: () => this.move(-Infinity, id),
      End: () => this.move(Infinity, id),
      Enter: () => this.onSelect(id),
      o: () => this.onSelect(id),
      x: () => this.pick(id, !this.picked.has(id)),
      " ": () => this.pick(id, !this.picked.has(id)),
    };
    const step = steps[ev.key];
    if (!step) return;
    ev.preventDefault();
    step();
  }
}
