// The Changes tab: the files a session changed and the diff, readable (one
// line per patch line, coloured by kind), with the merge controls. Everything
// in the patch is the agent's text: it goes in as text. A click on a line
// opens a comment box under it; the comment goes to the agent as a message
// quoting `file:line` and the line. Merge settings are each session's own,
// and a merge asks only once the diff it merges is on screen.
import { ApiError, api, sessionPath } from "./api";
import { appendShowingControls, byId, el } from "./dom";
import { notRemoving, outcome, removing } from "./outcomes";
import { type PatchLine, commentMessage, parsePatch } from "./patch";
import type { MergeResult, SessionDiff } from "./types";

/** More lines than this and the page shows the start and says how to see the rest. */
const MAX_LINES = 4000;

const LETTER: Record<string, string> = { added: "A", modified: "M", deleted: "D", renamed: "R", copied: "C", typechange: "T" };

interface MergeSettings {
  strategy: string;
  close: boolean;
  includeUncommitted: boolean;
}

const DEFAULTS: MergeSettings = { strategy: "merge", close: true, includeUncommitted: false };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function renderPatch(target: HTMLElement, patch: string, truncated: boolean): { anchors: Map<string, HTMLElement>; lines: PatchLine[] } {
  target.textContent = "";
  const anchors = new Map<string, HTMLElement>();
  const lines = patch ? parsePatch(patch) : [];
  const frag = document.createDocumentFragment();
  lines.slice(0, MAX_LINES).forEach((line, i) => {
    const span = el("span", `dl-${line.kind}`);
    appendShowingControls(span, `${line.text}\n`);
    span.dataset.i = String(i);
    if (line.kind === "file" && line.path) anchors.set(line.path, span);
    if (line.path && (line.line ?? line.oldLine) !== undefined) {
      span.dataset.path = line.path;
      span.dataset.line = String(line.line ?? line.oldLine);
      span.classList.add("commentable");
      span.title = "comment on this line (sent to the agent)";
    }
    frag.appendChild(span);
  });
  if (lines.length > MAX_LINES || truncated) {
    frag.appendChild(el("span", "dl-more", `… the patch goes on (${lines.length > MAX_LINES ? `${lines.length - MAX_LINES} more lines here` : "cut by the server"}): see spex session diff\n`));
  }
  target.appendChild(frag);
  return { anchors, lines };
}

export class ChangesView {
  private id: string | null = null;
  private seq = 0;
  private lines: PatchLine[] = [];
  private diff: SessionDiff | null = null;
  /** The load under way (or done) for the session shown: a merge waits for it. */
  private loading: Promise<SessionDiff | null> = Promise.resolve(null);
  private readonly settings = new Map<string, MergeSettings>();

  constructor(private readonly report: (outcome: string | Error) => void, private readonly label: (id: string) => string) {
    byId("diff-worktree").addEventListener("change", () => this.load());
    byId("diff-refresh").addEventListener("click", () => this.load());
    byId("diff-merge").addEventListener("click", () => void this.merge());
    byId("diff-merge-agent").addEventListener("click", () => void this.mergeByAgent());
    for (const id of ["merge-strategy", "merge-close", "merge-uncommitted"]) byId(id).addEventListener("change", () => this.keepSettings());
    byId("diff-patch").addEventListener("click", (ev) => {
      const span = (ev.target as HTMLElement).closest<HTMLElement>("span.commentable");
      if (span) this.openComment(span);
    });
  }

  /** The merge controls as this session left them (a new session starts from the defaults). */
  show(id: string): void {
    this.id = id;
    const s = this.settings.get(id) ?? DEFAULTS;
    byId<HTMLSelectElement>("merge-strategy").value = s.strategy;
    byId<HTMLInputElement>("merge-close").checked = s.close;
    byId<HTMLInputElement>("merge-uncommitted").checked = s.includeUncommitted;
    this.load();
  }

  private keepSettings(): void {
    if (!this.id) return;
    this.settings.set(this.id, {
      strategy: byId<HTMLSelectElement>("merge-strategy").value,
      close: byId<HTMLInputElement>("merge-close").checked,
      includeUncommitted: byId<HTMLInputElement>("merge-uncommitted").checked,
    });
  }

  clear(): void {
    this.id = null;
    this.diff = null;
    this.lines = [];
    this.loading = Promise.resolve(null);
    byId("diff-files").textContent = "";
    byId("diff-patch").textContent = "";
    byId("diff-summary").textContent = "";
  }

  load(): Promise<SessionDiff | null> {
    const id = this.id;
    byId("diff-merge-agent").hidden = true;
    if (!id) return Promise.resolve(null);
    const seq = ++this.seq;
    const worktree = byId<HTMLInputElement>("diff-worktree").checked;
    byId("diff-summary").textContent = "loading the diff…";
    this.loading = api<SessionDiff>("GET", sessionPath(id, `/diff${worktree ? "?worktree=1" : ""}`)).then(
      (d) => {
        if (seq !== this.seq || id !== this.id) return null;
        this.render(d);
        return d;
      },
      (e: Error) => {
        if (seq !== this.seq) return null;
        this.diff = null;
        byId("diff-summary").textContent = e.message;
        byId("diff-files").textContent = "";
        byId("diff-patch").textContent = "";
        return null;
      },
    );
    return this.loading;
  }

  private render(d: SessionDiff): void {
    this.diff = d;
    const files = byId("diff-files");
    files.textContent = "";
    byId("diff-summary").textContent = d.files.length
      ? `${plural(d.files.length, "file")} changed, +${d.additions} −${d.deletions} against ${d.forkPoint.slice(0, 10)} (forked from ${d.into})${d.uncommitted.length ? `, ${d.uncommitted.length} uncommitted` : ""}`
      : `no changes against ${d.forkPoint.slice(0, 10)} (forked from ${d.into})`;
    const { anchors, lines } = renderPatch(byId("diff-patch"), d.patch ?? "", !!d.truncated);
    this.lines = lines;
    for (const f of d.files) {
      const li = el("li", `df-${f.status}`);
      li.dataset.path = f.path;
      li.appendChild(el("span", "df-letter", LETTER[f.status] ?? "?"));
      appendShowingControls(li.appendChild(el("span", "df-path")), f.oldPath ? `${f.oldPath} → ${f.path}` : f.path);
      li.appendChild(el("span", "df-counts", f.binary ? "binary" : `+${f.additions} −${f.deletions}`));
      li.addEventListener("click", () => anchors.get(f.path)?.scrollIntoView({ block: "start" }));
      files.appendChild(li);
    }
  }

  // --- a comment on a line ---------------------------------------------------

  private openComment(span: HTMLElement): void {
    const line = this.lines[Number(span.dataset.i)];
    const id = this.id;
    if (!line || !id) return;
    byId("diff-patch").querySelector(".comment-box")?.remove();
    const box = el("span", "comment-box");
    const text = box.appendChild(el("textarea"));
    text.rows = 2;
    text.placeholder = `a comment on ${line.path}:${line.line ?? line.oldLine}, sent to the agent (Ctrl+Enter)`;
    const send = box.appendChild(el("button", "primary", "send to the agent"));
    send.type = "button";
    const cancel = box.appendChild(el("button", "", "cancel"));
    cancel.type = "button";
    const go = async () => {
      if (!text.value.trim()) return;
      send.disabled = true;
      try {
        const r = await api<{ messageId: string; state: string; reason?: string }>("POST", sessionPath(id, "/send"), { text: commentMessage(line, text.value) });
        this.report(`message ${r.messageId}: ${r.state}${r.reason ? ` (${r.reason})` : ""}`);
        box.remove();
      } catch (e) {
        this.report(e as Error);
        send.disabled = false;
      }
    };
    send.addEventListener("click", () => void go());
    cancel.addEventListener("click", () => box.remove());
    text.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        void go();
      } else if (ev.key === "Escape") {
        ev.stopPropagation();
        box.remove();
      }
    });
    span.after(box);
    text.focus();
  }

  // --- merge -----------------------------------------------------------------

  async merge(): Promise<void> {
    const id = this.id;
    if (!id) return;
    // The confirm names what it merges: wait for the diff to be on screen first.
    const d = (await this.loading) ?? (await this.load());
    if (id !== this.id) return;
    const { strategy, close, includeUncommitted } = { ...DEFAULTS, ...this.settings.get(id) };
    const how = strategy === "merge" ? "Merge" : strategy === "squash" ? "Squash-merge" : strategy === "rebase" ? "Rebase and merge" : "Fast-forward";
    const what = d ? ` (${plural(d.files.length, "file")}, +${d.additions} −${d.deletions})` : " (its diff could not be read)";
    if (!confirm(`${how} ${this.label(id)} into the main branch${what}${close ? " and close it" : ""}?`)) return;
    const label = this.label(id);
    this.report("merging…");
    if (close) removing(id);
    try {
      const r = await api<MergeResult>("POST", sessionPath(id, "/merge"), { strategy, close, includeUncommitted });
      if (!r.closed) notRemoving(id);
      const how = r.landing === "none" ? `${r.branch} was already on ${r.into}` : `merged ${r.branch} into ${r.into} (${r.landing === "merge-commit" ? "merge commit" : r.landing}, ${plural(r.commits, "commit")})`;
      const said = `${how}${r.closed ? "; closed" : ""}`;
      this.report(said);
      // The panel goes with a closed session: what happened stays on screen.
      outcome(`${label}: ${said}`);
      if (!r.closed) void this.load();
    } catch (e) {
      notRemoving(id);
      const err = e as ApiError;
      const files = Array.isArray(err.details?.files) ? ` — ${(err.details.files as string[]).join(", ")}` : "";
      this.report(new Error(`${err.message}${files}`));
      // Only the work's author can settle these: offer to hand the landing to the session's agent.
      if (err.code === "merge_conflict" || err.code === "merge_raced") byId("diff-merge-agent").hidden = false;
    }
  }

  /** `spex session merge --by-agent`: the agent is sent a prompt to land its own branch. */
  async mergeByAgent(): Promise<void> {
    const id = this.id;
    if (!id) return;
    if (!confirm(`Ask ${this.label(id)}'s agent to bring the main branch in, resolve, test and land its branch itself?`)) return;
    try {
      const r = await api<{ dispatched: boolean; into: string; message: { messageId: string; state: string; reason: string } | null }>("POST", sessionPath(id, "/merge-by-agent"), {});
      byId("diff-merge-agent").hidden = true;
      this.report(r.dispatched && r.message ? `asked its agent to land it on ${r.into}: message ${r.message.state}${r.message.reason ? ` (${r.message.reason})` : ""}` : `already on ${r.into}: nothing to hand over`);
    } catch (e) {
      this.report(e as Error);
    }
  }
}
