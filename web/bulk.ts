// Bulk actions on the rows ticked in the table: stop, resume, archive (the
// agent stopped, as the panel's archive does), each session's own route, a
// few at a time; the bar says how many went and why any did not.
import { api, sessionPath } from "./api";
import { byId } from "./dom";
import { outcome } from "./outcomes";
import type { SessionTable } from "./table";

const AT_ONCE = 3;

const VERBS = {
  stop: { body: {}, ask: "Stop %n? Their agents and tmux sessions end; worktrees stay." },
  resume: { body: {}, ask: "" },
  archive: { body: { stop: true }, ask: "Archive %n? Their agents stop and they leave the list." },
} as const;

type Verb = keyof typeof VERBS;

export class BulkBar {
  private running = false;

  constructor(private readonly table: SessionTable) {
    for (const verb of Object.keys(VERBS) as Verb[]) byId(`bulk-${verb}`).addEventListener("click", () => void this.run(verb));
    byId("bulk-clear").addEventListener("click", () => table.clearPicks());
  }

  /** The bar as the selection is now. */
  render(): void {
    const n = this.table.picked.size;
    byId("bulk").hidden = n === 0 && !this.running;
    byId("bulk-count").textContent = `${n} selected`;
  }

  private async run(verb: Verb): Promise<void> {
    const ids = [...this.table.picked];
    if (ids.length === 0 || this.running) return;
    const names = ids.length === 1 ? this.table.label(ids[0]!) : `${ids.length} sessions`;
    if (VERBS[verb].ask && !confirm(VERBS[verb].ask.replace("%n", names))) return;
    this.running = true;
    const result = byId("bulk-result");
    result.className = "muted";
    result.textContent = `${verb}…`;
    const failed: string[] = [];
    let done = 0;
    const queue = [...ids];
    const worker = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        try {
          await api("POST", sessionPath(id, `/${verb}`), VERBS[verb].body);
          done += 1;
        } catch (e) {
          failed.push(`${this.table.label(id)}: ${(e as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length) }, worker));
    this.running = false;
    result.textContent = `${verb}: ${done} done${failed.length ? `, ${failed.length} refused — ${failed.join("; ")}` : ""}`;
    result.className = failed.length ? "error" : "muted";
    // Archived rows leave the list, and the bar with them: what happened stays on screen.
    if (verb === "archive") outcome(result.textContent, { error: failed.length > 0 });
    this.render();
  }
}
