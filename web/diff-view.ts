// The Changes tab: the files a session changed and the diff, readable (one
// line per patch line, coloured by kind), with the merge controls. Everything
// in the patch is the agent's text: it goes in as text.
import { ApiError, api, sessionPath } from "./api";
import { byId, el } from "./dom";
import type { MergeResult, SessionDiff } from "./types";

/** More lines than this and the page shows the start and says how to see the rest. */
const MAX_LINES = 4000;

const LETTER: Record<string, string> = { added: "A", modified: "M", deleted: "D", renamed: "R", copied: "C", typechange: "T" };

function lineClass(line: string): string {
  if (line.startsWith("diff --git")) return "dl-file";
  if (line.startsWith("@@")) return "dl-hunk";
  if (line.startsWith("+++") || line.startsWith("---") || /^(index|new file|deleted file|similarity|rename|old mode|new mode|Binary)/.test(line)) return "dl-meta";
  if (line.startsWith("+")) return "dl-add";
  if (line.startsWith("-")) return "dl-del";
  return "dl-ctx";
}

export function renderPatch(target: HTMLElement, patch: string, truncated: boolean): Map<string, HTMLElement> {
  target.textContent = "";
  const anchors = new Map<string, HTMLElement>();
  const lines = patch.replace(/\n$/, "").split("\n");
  const frag = document.createDocumentFragment();
  for (const line of lines.slice(0, MAX_LINES)) {
    const span = el("span", lineClass(line), `${line}\n`);
    if (span.className === "dl-file") {
      const m = / b\/(.*)$/.exec(line);
      if (m) anchors.set(m[1]!, span);
    }
    frag.appendChild(span);
  }
  if (lines.length > MAX_LINES || truncated) {
    frag.appendChild(el("span", "dl-more", `… the patch goes on (${lines.length > MAX_LINES ? `${lines.length - MAX_LINES} more lines here` : "cut by the server"}): see spex session diff\n`));
  }
  target.appendChild(frag);
  return anchors;
}

export class ChangesView {
  private id: string | null = null;
  private seq = 0;

  constructor(private readonly report: (outcome: string | Error) => void, private readonly label: (id: string) => string) {
    byId("diff-worktree").addEventListener("change", () => this.load());
    byId("diff-refresh").addEventListener("click", () => this.load());
    byId("diff-merge").addEventListener("click", () => void this.merge());
    byId("diff-merge-agent").addEventListener("click", () => void this.mergeByAgent());
  }

  show(id: string): void {
    this.id = id;
    this.load();
  }

  clear(): void {
    this.id = null;
    byId("diff-files").textContent = "";
    byId("diff-patch").textContent = "";
    byId("diff-summary").textContent = "";
  }

  load(): void {
    const id = this.id;
    byId("diff-merge-agent").hidden = true;
    if (!id) return;
    const seq = ++this.seq;
    const worktree = byId<HTMLInputElement>("diff-worktree").checked;
    byId("diff-summary").textContent = "loading the diff…";
    api<SessionDiff>("GET", sessionPath(id, `/diff${worktree ? "?worktree=1" : ""}`)).then(
      (d) => {
        if (seq !== this.seq || id !== this.id) return;
        this.render(d);
      },
      (e: Error) => {
        if (seq !== this.seq) return;
        byId("diff-summary").textContent = e.message;
        byId("diff-files").textContent = "";
        byId("diff-patch").textContent = "";
      },
    );
  }

  private render(d: SessionDiff): void {
    const files = byId("diff-files");
    files.textContent = "";
    byId("diff-summary").textContent = d.files.length
      ? `${d.files.length} file${d.files.length === 1 ? "" : "s"} changed, +${d.additions} −${d.deletions} against ${d.forkPoint.slice(0, 10)} (forked from ${d.into})${d.uncommitted.length ? `, ${d.uncommitted.length} uncommitted` : ""}`
      : `no changes against ${d.forkPoint.slice(0, 10)} (forked from ${d.into})`;
    const anchors = renderPatch(byId("diff-patch"), d.patch ?? "", !!d.truncated);
    for (const f of d.files) {
      const li = el("li", `df-${f.status}`);
      li.dataset.path = f.path;
      li.appendChild(el("span", "df-letter", LETTER[f.status] ?? "?"));
      li.appendChild(el("span", "df-path", f.oldPath ? `${f.oldPath} → ${f.path}` : f.path));
      li.appendChild(el("span", "df-counts", f.binary ? "binary" : `+${f.additions} −${f.deletions}`));
      li.addEventListener("click", () => anchors.get(f.path)?.scrollIntoView({ block: "start" }));
      files.appendChild(li);
    }
  }

  async merge(): Promise<void> {
    const id = this.id;
    if (!id) return;
    const strategy = byId<HTMLSelectElement>("merge-strategy").value;
    const close = byId<HTMLInputElement>("merge-close").checked;
    const includeUncommitted = byId<HTMLInputElement>("merge-uncommitted").checked;
    const what = `${strategy === "merge" ? "Merge" : strategy === "squash" ? "Squash-merge" : strategy === "rebase" ? "Rebase and merge" : "Fast-forward"} ${this.label(id)} into the main branch${close ? " and close it" : ""}?`;
    if (!confirm(what)) return;
    this.report("merging…");
    try {
      const r = await api<MergeResult>("POST", sessionPath(id, "/merge"), { strategy, close, includeUncommitted });
      const how = r.landing === "none" ? `${r.branch} was already on ${r.into}` : `merged ${r.branch} into ${r.into} (${r.landing === "merge-commit" ? "merge commit" : r.landing}, ${r.commits} commit${r.commits === 1 ? "" : "s"})`;
      this.report(`${how}${r.closed ? "; closed" : ""}`);
      if (!r.closed) this.load();
    } catch (e) {
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
