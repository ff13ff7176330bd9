// The detail panel of one session: facts, actions, a message box, the prompt,
// the screen and the timeline in words (Overview); files and diff with the
// merge controls (Changes); the live pane (Terminal).
import { api, sessionPath } from "./api";
import { type Report, act, closeWithPlan } from "./actions";
import { age, byId, el, showControls } from "./dom";
import { labelOf } from "./columns";
import { ChangesView } from "./diff-view";
import { QuarantineForm } from "./quarantine";
import type { SessionTable } from "./table";
import type { Route, Tab } from "./router";
import type { Detail, Row, TimelineEvent } from "./types";
import { outcome } from "./outcomes";
import { eventWords } from "./words";

export interface PaneView {
  open(id: string): void;
  close(): void;
}

export class DetailPanel {
  private id: string | null = null;
  private tab: Tab = "overview";
  private timelineSeq = 0;
  private timelineTimer: ReturnType<typeof setTimeout> | null = null;
  private screenAt = 0;
  private screenTimer: ReturnType<typeof setTimeout> | null = null;
  readonly changes: ChangesView;
  private readonly quarantine: QuarantineForm;
  /** Each session's unsent message: the box holds the open session's own, never another's. */
  private readonly drafts = new Map<string, string>();

  /** `route` hears where the panel went (a URL for it); `push` says a new history entry. */
  constructor(private readonly table: SessionTable, private readonly pane: PaneView, private readonly route: (r: Route | null, push: boolean) => void) {
    this.changes = new ChangesView((o) => this.result(o), (id) => table.label(id));
    this.quarantine = new QuarantineForm((o) => this.result(o));
    byId("d-close-panel").addEventListener("click", () => this.close());
    byId("act-stop").addEventListener("click", () => void this.act("stop", "Stop %s? Its agent and tmux session end; the worktree stays."));
    byId("act-resume").addEventListener("click", () => void this.act("resume", null));
    byId("act-archive").addEventListener("click", () => {
      const row = this.id ? table.rows.get(this.id) : undefined;
      // An archived session's button takes it back into the list (its agent is not relaunched).
      if (row?.kind === "ok" && row.archived) void this.act("archive", null, { restore: true });
      else void this.act("archive", "Archive %s? Its agent stops and it leaves the list (its last screen is kept).", { stop: true });
    });
    byId("act-close").addEventListener("click", () => {
      if (this.id) void closeWithPlan(this.id, table.label(this.id), this.reportFor(this.id));
    });
    byId("act-merge").addEventListener("click", () => {
      this.showTab("changes");
      void this.changes.merge();
    });
    byId("send-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const box = byId<HTMLTextAreaElement>("send-text");
      const id = this.id;
      const text = box.value;
      if (!id || !text.trim()) return;
      void this.act("send", null, { text }).then((r) => {
        if (!r) return;
        // Sent: gone from the box, unless the box now holds something else (another session's draft, more typing).
        if (this.id === id && box.value === text) box.value = "";
        if (this.drafts.get(id) === text) this.drafts.delete(id);
      });
    });
    for (const t of ["overview", "changes", "terminal"] as const) byId(`tab-${t}`).addEventListener("click", () => this.showTab(t));
    // Ctrl+Enter sends the message (Enter is a new line in it).
    byId("send-text").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        byId<HTMLFormElement>("send-form").requestSubmit();
      }
    });
    // A running pane changes without any event (a shell prints, an agent streams): look again now and then.
    setInterval(() => {
      const row = this.id ? table.rows.get(this.id) : undefined;
      if (row && row.liveness === "online" && !document.hidden && this.tab === "overview") this.refreshScreen(false);
    }, 2000);
  }

  get selected(): string | null {
    return this.id;
  }

  /** Open a session's panel (on `tab`, else the tab last shown); `push` makes it a new history entry. */
  open(id: string, tab: Tab = this.tab, push = true): void {
    if (this.id === id && !byId("detail").hidden) {
      this.showTab(tab, push);
      return;
    }
    this.keepDraft();
    byId<HTMLTextAreaElement>("send-text").value = this.drafts.get(id) ?? "";
    this.table.select(id);
    this.id = id;
    this.tab = tab;
    byId("detail").hidden = false;
    document.body.classList.add("detail-open");
    byId("d-result").textContent = "";
    byId("d-prompt").textContent = "";
    byId("d-screen").textContent = "";
    byId("d-timeline").textContent = "";
    this.timelineSeq = 0;
    this.changes.clear();
    const row = this.table.rows.get(id);
    if (row) this.showFacts(row);
    this.refreshScreen(true);
    this.loadTimeline();
    this.showTab(this.tab, push);
  }

  /** Close the panel; the keyboard goes back to its row. `push: false` when the URL already says so (Back). */
  close(push = true): void {
    const id = this.id;
    this.keepDraft();
    byId<HTMLTextAreaElement>("send-text").value = "";
    this.table.select(null);
    this.pane.close();
    this.id = null;
    byId("detail").hidden = true;
    document.body.classList.remove("detail-open");
    if (id) {
      this.route(null, push);
      this.table.focusRow(id);
    }
  }

  /** The selected session's row changed (an event): facts, and what its timeline now says about deliveries. */
  rowChanged(row: Row): void {
    if (row.id !== this.id) return;
    this.showFacts(row);
    this.refreshScreen(false);
    // A pane that ended (stop, the agent exiting) or was not there (a stopped
    // session) comes back with the session: the terminal opens on the new one.
    if (this.tab === "terminal" && row.liveness === "online") this.pane.open(row.id);
    if (this.timelineTimer) clearTimeout(this.timelineTimer);
    this.timelineTimer = setTimeout(() => this.loadTimeline(), 300);
  }

  timelineEvent(id: string, ev: TimelineEvent): void {
    if (id !== this.id) return;
    this.appendEvent(ev);
    this.refreshScreen(false);
    if (ev.kind === "merge" && this.tab === "changes") this.changes.load();
  }

  showTab(tab: Tab, push = false): void {
    this.tab = tab;
    for (const t of ["overview", "changes", "terminal"] as const) {
      byId(`tab-${t}`).classList.toggle("on", t === tab);
      byId(`pane-${t}`).hidden = t !== tab;
    }
    if (!this.id) return;
    this.route({ id: this.id, tab }, push);
    if (tab === "changes") this.changes.show(this.id);
    if (tab === "terminal") this.pane.open(this.id);
    else this.pane.close();
  }

  private showFacts(row: Row): void {
    byId("d-label").textContent = labelOf(row);
    const dl = byId("d-facts");
    dl.textContent = "";
    const fact = (name: string, value: string | undefined) => {
      if (!value) return;
      dl.appendChild(el("dt", "", name));
      dl.appendChild(el("dd", "", showControls(value)));
    };
    fact("id", row.id);
    fact("status", row.display + (row.kind === "ok" ? ` (${row.lifecycle}${row.proposal ? `, proposes ${row.proposal}` : ""})` : ""));
    fact("liveness", row.liveness);
    if (row.kind === "ok") {
      fact("note", row.note);
      fact("branch", row.branch);
      fact("base", row.base ?? "");
      fact("group", row.group);
      fact("worktree", row.worktree);
      fact("harness", row.harness + (row.launcher && row.launcher !== row.harness ? ` (${row.launcher})` : ""));
      fact("parent", row.parent ? `${this.table.label(row.parent)} ${row.parent.slice(0, 8)}` : "");
      fact("created", `${row.createdAt} (${age(row.createdAt)} ago)`);
      fact("archived", row.archived ? "yes" : "");
    } else {
      fact("file", row.file);
      fact("error", row.error);
    }
    byId("act-merge").hidden = !(row.kind === "ok" && row.proposal === "merge");
    // A corrupt record takes no lifecycle action (every writer refuses it): its recovery is quarantine.
    const ok = row.kind === "ok";
    for (const b of ["act-stop", "act-resume", "act-archive", "act-close"]) byId(b).hidden = !ok;
    byId("send-form").hidden = !ok;
    byId("act-archive").textContent = ok && row.archived ? "unarchive" : "archive";
    this.quarantine.show(ok ? null : row.id);
  }

  private loadTimeline(): void {
    const id = this.id;
    if (!id) return;
    api<{ events: (TimelineEvent & { delivery?: string })[] }>("GET", sessionPath(id, "/timeline?tail=200")).then(
      (t) => {
        if (id !== this.id) return;
        byId("d-timeline").textContent = "";
        this.timelineSeq = 0;
        for (const e of t.events) this.appendEvent(e);
      },
      (e: Error) => this.result(e),
    );
  }

  private appendEvent(ev: TimelineEvent & { delivery?: string }): void {
    if (ev.seq <= this.timelineSeq) return;
    this.timelineSeq = ev.seq;
    const li = el("li");
    li.dataset.seq = String(ev.seq);
    li.dataset.kind = ev.kind;
    const at = String(ev.at ?? "");
    const t = li.appendChild(el("span", "t", at.slice(11, 19)));
    t.title = `#${ev.seq} ${at.replace("T", " ").slice(0, 19)}`;
    li.appendChild(el("span", "w", showControls(eventWords(ev, (id) => this.table.label(id)))));
    const list = byId("d-timeline");
    list.insertBefore(li, list.firstChild); // newest first
  }

  /** The prompt and the screen: the pane as it is now while the session runs, else the last capture. */
  private refreshScreen(now: boolean): void {
    if (!this.id) return;
    const wait = now ? 0 : Math.max(0, 1000 - (Date.now() - this.screenAt));
    if (this.screenTimer) {
      if (!now) return;
      clearTimeout(this.screenTimer);
    }
    this.screenTimer = setTimeout(() => {
      this.screenTimer = null;
      this.screenAt = Date.now();
      const id = this.id;
      if (!id) return;
      api<Detail>("GET", sessionPath(id, "?capture=1")).then(
        (d) => {
          if (id !== this.id) return;
          byId("d-prompt").textContent = showControls(d.prompt);
          byId("d-screen-title").textContent = d.screen !== null ? "screen (now)" : "last screen";
          byId("d-screen").textContent = showControls(d.screen !== null ? d.screen.replace(/\s+$/, "") : d.lastScreen || "(no screen captured yet: archive captures it)");
        },
        (e: Error) => this.result(e),
      );
    }, wait);
  }

  /** The open session's unsent message, kept for when its panel opens again. */
  private keepDraft(): void {
    if (!this.id) return;
    const text = byId<HTMLTextAreaElement>("send-text").value;
    if (text.trim()) this.drafts.set(this.id, text);
    else this.drafts.delete(this.id);
  }

  /**
   * Where what an action on `id` did is said: its panel while it is open; once
   * another session's panel is open (or none), the outcome under the header,
   * naming the session (a progress word is left out).
   */
  private reportFor(id: string): Report {
    return (o) => {
      if (this.id === id && !byId("detail").hidden) return this.result(o);
      const text = o instanceof Error ? o.message : o;
      if (!(o instanceof Error) && text.endsWith("…")) return;
      outcome(`${this.table.label(id)}: ${text}`, { error: o instanceof Error });
    };
  }

  result(o: string | Error): void {
    const node = byId("d-result");
    node.textContent = o instanceof Error ? o.message : o;
    node.className = o instanceof Error ? "error" : "muted";
  }

  private async act(verb: string, confirmText: string | null, body: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.id;
    if (!id) return undefined;
    return act(id, this.table.label(id), verb, confirmText, body, this.reportFor(id));
  }
}
