// The header's status pills: all, what needs you, then one per status in
// the list, each with its count; a pill filters the table to its rows (again:
// all). The tab's title carries the number that need you. Pills are kept by
// status and updated in place, so a pill holding the keyboard keeps it.
import { byId, el } from "./dom";
import { NEEDS_YOU } from "./order";
import type { SessionTable } from "./table";

export class StatusPills {
  private readonly pills = new Map<string, HTMLButtonElement>();
  project = "";

  constructor(private readonly table: SessionTable) {}

  private pill(status: string): HTMLButtonElement {
    let b = this.pills.get(status);
    if (!b) {
      b = el("button", "pill");
      b.type = "button";
      b.dataset.status = status;
      b.addEventListener("click", () => {
        this.table.statusFilter = this.table.statusFilter === status ? "" : status;
        this.table.queueLayout();
      });
      this.pills.set(status, b);
    }
    return b;
  }

  render(): void {
    const counts = new Map<string, number>();
    let total = 0;
    let needs = 0;
    this.table.rows.forEach((r) => {
      if (!this.table.counted(r)) return;
      total += 1;
      if ((NEEDS_YOU as readonly string[]).includes(r.display)) needs += 1;
      counts.set(r.display, (counts.get(r.display) ?? 0) + 1);
    });
    const shown: [string, string][] = [["", `${total} session${total === 1 ? "" : "s"}`]];
    if (needs) shown.push(["needs-you", `${needs} need${needs === 1 ? "s" : ""} you`]);
    for (const k of [...counts.keys()].sort()) shown.push([k, `${counts.get(k)} ${k}`]);
    // A filtered status whose rows all went keeps its pill, at 0, so the filter can be undone.
    const active = this.table.statusFilter;
    if (active && !shown.some(([k]) => k === active)) shown.push([active, `0 ${active === "needs-you" ? "need you" : active}`]);
    const box = byId("summary");
    let cursor = box.firstChild;
    for (const [status, text] of shown) {
      const b = this.pill(status);
      b.textContent = text;
      b.setAttribute("aria-pressed", String(active === status));
      b.classList.toggle("needs", status === "needs-you");
      if (b === cursor) cursor = cursor.nextSibling;
      else box.insertBefore(b, cursor);
    }
    while (cursor) {
      const gone = cursor;
      cursor = cursor.nextSibling;
      box.removeChild(gone);
    }
    document.title = `${needs ? `(${needs}) ` : ""}spex${this.project ? ` · ${this.project}` : ""}`;
  }
}
