// The dashboard (docs/dashboard.md): the session table updated live from the
// event stream, a detail panel per session (overview, changes, terminal), a
// form to start sessions, and the project's groups, tasks and reservations.
// Bundled for the browser at build time (scripts/build-web.ts).
import { api } from "./api";
import { connect, notice } from "./connection";
import { CoordPanel } from "./coord";
import { CreateForm } from "./create-form";
import { DetailPanel } from "./detail";
import { BulkBar } from "./bulk";
import { ResumeAllButton } from "./resume-all";
import { byId } from "./dom";
import { pageKeys } from "./keys";
import { type Route, Router } from "./router";
import { SessionTable } from "./table";
import { LazyTerminal } from "./lazy-terminal";
import { Notifier } from "./notify";
import { outcome, removedHere } from "./outcomes";
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
    resumeAll.render();
  },
);
const pills = new StatusPills(table);
const bulk = new BulkBar(table);
const resumeAll = new ResumeAllButton(table);
const notifier = new Notifier((id) => detail.open(id));
const terminal = new LazyTerminal();
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
    const json = await api<{ sessions: Row[]; eventId?: number }>("GET", "/api/sessions");
    performance.mark("spex:list-loaded");
    const open = detail.selected;
    const openLabel = open ? table.label(open) : "";
    table.endLoad(json.sessions);
    listedAt = json.eventId ?? Number.MAX_SAFE_INTEGER;
    if (missedFrames()) return listFor(listedFor);
    // The URL's panel, once the rows it may name are here.
    if (!routed) {
      routed = true;
      follow(router.current());
    }
    const sel = detail.selected;
    const row = sel ? table.rows.get(sel) : undefined;
    if (row) detail.rowChanged(row);
    else if (sel && sel === open) {
      // Closed while the page was not listening (a backend restart, a resync): its removal never came as an event.
      detail.close(false);
      outcome(`${openLabel} (${sel.slice(0, 8)}) is gone: it was closed while this page was away`);
    }
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

const handlers: Record<string, (data: any, frameId: string) => void> = {
  hello: (h: { root: string; instanceId: string; resync?: boolean }, frameId) => {
    byId("root").textContent = h.root;
    pills.project = h.root.split("/").pop() ?? "";
    pills.render();
    // The list was asked for as soon as this backend proved itself; a resync (too far behind) asks again.
    if (h.resync || listedFor !== h.instanceId) listFor(h.instanceId);
    helloAt = Number(frameId) || 0;
    if (missedFrames()) listFor(listedFor);
    coord.reload();
  },
  session: (row: Row) => {
    notifier.transition(table.rows.get(row.id), row);
    table.upsert(row);
    detail.rowChanged(row);
    coord.reload();
  },
  session_removed: (d: { id: string }) => {
    const here = removedHere(d.id);
    const label = table.label(d.id);
    table.remove(d.id);
    if (d.id === detail.selected) {
      detail.close(false);
      // Closed by someone else (the CLI, another tab, an agent) while a person had it open: say why the panel went.
      if (!here) outcome(`${label} (${d.id.slice(0, 8)}) is gone: it was closed elsewhere`);
    }
    coord.reload();
  },
  timeline: (t: { id: string; event: TimelineEvent }) => detail.timelineEvent(t.id, t.event),
};

/** The instance the list was last loaded from: a restarted backend (another instance) is listed again. */
let listedFor = "";
/** The id of the last frame the backend had sent when it read the list (-1: not loaded yet). */
let listedAt = -1;
/** The id of the stream's hello from that backend (-1: none yet). */
let helloAt = -1;
function listFor(instance: string): void {
  if (instance !== listedFor) helloAt = -1;
  listedFor = instance;
  listedAt = -1;
  void loadList();
}

/**
 * The list and the stream start together, so a change the backend sent after
 * reading the list but before the stream joined reaches neither: the hello's
 * id says so (higher than the list's), and the list loads again, once.
 */
function missedFrames(): boolean {
  if (listedAt < 0 || helloAt < 0 || listedAt >= helloAt) return false;
  helloAt = -1;
  return true;
}

// The list loads alongside the event stream, not after its first frame: the rows show a round trip sooner.
connect(
  (f) => handlers[f.type]?.(JSON.parse(f.data), f.id),
  (instance) => void (listedFor !== instance && listFor(instance)),
);
