// Keys that work anywhere on the page but in a text box or the terminal:
// `/` the filter, Esc closes the panel (and leaves a text box first), j/k onto
// the list, `?` the list of keys. The rows' own keys (j/k, arrows, Enter)
// are the table's. The terminal keeps every key for its program but F6,
// which hands the keyboard back (web/terminal.ts).
import type { DetailPanel } from "./detail";
import { byId } from "./dom";
import type { SessionTable } from "./table";

export function pageKeys(table: SessionTable, detail: DetailPanel): void {
  const filter = byId<HTMLInputElement>("filter");
  const help = byId("keys-help");
  byId("keys-close").addEventListener("click", () => (help.hidden = true));
  document.addEventListener("keydown", (ev) => {
    const target = ev.target as HTMLElement;
    if (target.closest("#term")) return;
    if (target.closest("input, textarea, select, [contenteditable]")) {
      if (ev.key !== "Escape") return;
      ev.preventDefault();
      target.blur();
      // Out of the filter, straight back to the rows it filtered.
      if (target === filter) table.focusList();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "/") {
      ev.preventDefault();
      filter.focus();
      filter.select();
    } else if (ev.key === "Escape") {
      if (!help.hidden) help.hidden = true;
      else if (detail.selected) detail.close();
      else return;
      ev.preventDefault();
    } else if ((ev.key === "j" || ev.key === "k" || ev.key === "ArrowDown") && !target.closest("tr.row, button, a, summary")) {
      if (table.focusList()) ev.preventDefault();
    } else if (ev.key === "?") {
      help.hidden = !help.hidden;
    }
  });
}
