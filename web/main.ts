// The dashboard (docs/backend.md): the session table updated live from the
// event stream, a detail panel per session (overview, changes, terminal), a
// form to start sessions, and the project's groups, tasks and reservations.
// Bundled for the browser at build time (scripts/build-web.ts).
import { api } from "./api";
import { connect, notice } from "./connection";
import { CoordPanel } from "./coord";
import { CreateForm } from "./create-form";
import { DetailPanel } from "./detail";
import { BulkBar } from "./bulk";
import { byId } from "./dom";
import { pageKeys } from "./keys";
import { type Route, Router } from "./router";
import { SessionTable } from "./table";
import { LiveTerminal } from "./terminal";
import { Notifier } from "./notify";
import { StatusPills } from "./summary";
import type { Row, TimelineEvent } from "./types";
import { allowStyleElements } from "./csp";

allowStyleElements();

const coord = new CoordPanel();
// The detail panel is made below; the table reports selections to it.
let detail: DetailPanel;
const table = new SessionTable(
  (id) => detail.open(id),
  () => {
    pills.render();
    bulk.render();
  },
);
const pills = new StatusPills(table);
const bulk = new BulkBar(table);
const notifier = new Notifier((id) => detail.open(id));
const terminal = new LiveTerminal();
const router = new Router((r) => follow(r));
detail = new DetailPanel(table, terminal, (r, push) => router.show(r, push));
new CreateForm(table, coord, (id) => detail.open(id));
pageKeys(table, detail);

/** A session a URL names: its full id, or a prefix only one session has. */
function sessionNamed(idOrPrefix: string): string | undefined {
  if (table.rows.has(idOrPrefix)) return idOrPrefix;
  const matches = [...table.rows.keys()].filter((id) => id.startsWith(idOrPrefix));
  return matches.length === 1 ? matches[0] : undefined;
}

/** Show what the URL says (a reload, Back or Forward): the address bar already says it. */
function follow(r: Route | null): void {
  if (!r) {
    if (detail.selected) detail.close(false);
    return;
  }
  const id = sessionNamed(r.id);
  if (id) {
    notice("");
    return detail.open(id, r.tab, false);
  }
  if (detail.selected) detail.close(false);
  notice(`no session ${r.id.slice(0, 40)} here (closed, or another project's)`);
}

let routed = false;

async function loadList(): Promise<void> {
  table.beginLoad();
  try {
    const json = await api<{ sessions: Row[] }>("GET", "/api/sessions");
    table.endLoad(json.sessions);
    // The URL's panel, once the rows it may name are here.
    if (!routed) {
      routed = true;
      follow(router.current());
    }
    const sel = detail.selected;
    const row = sel ? table.rows.get(sel) : undefined;
    if (row) detail.rowChanged(row);
  } catch (e) {
    table.endLoad(null);
    notice(`could not load sessions: ${(e as Error).message}`);
  }
}

byId("filter").addEventListener("input", (ev) => {
  table.filterText = (ev.target as HTMLInputElement).value.trim().toLowerCase();
  table.queueLayout();
});
byId("show-archived").addEventListener("change", (ev) => {
  table.showArchived = (ev.target as HTMLInputElement).checked;
  table.queueLayout();
});
byId("triage").addEventListener("change", (ev) => {
  table.triage = (ev.target as HTMLInputElement).checked;
  table.queueLayout();
});

const handlers: Record<string, (data: any) => void> = {
  hello: (h: { root: string }) => {
    byId("root").textContent = h.root;
    pills.project = h.root.split("/").pop() ?? "";
    pills.render();
    void loadList();
    coord.reload();
  },
  session: (row: Row) => {
    notifier.transition(table.rows.get(row.id), row);
    table.upsert(row);
    detail.rowChanged(row);
    coord.reload();
  },
  session_removed: (d: { id: string }) => {
    table.remove(d.id);
    if (d.id === detail.selected) detail.close(false);
    coord.reload();
  },
  timeline: (t: { id: string; event: TimelineEvent }) => detail.timelineEvent(t.id, t.event),
};

connect((f) => handlers[f.type]?.(JSON.parse(f.data)));
