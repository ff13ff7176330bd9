// The header's "resume N": `spex session resume --all` for this project
// (docs/survive.md), shown while some session's agent died (the machine
// restarted, its tmux server went, it exited) and was not stopped by a person.
import { api } from "./api";
import { byId } from "./dom";
import { outcome } from "./outcomes";
import type { SessionTable } from "./table";

const DIED = new Set(["machine_restarted", "tmux_server_gone", "agent_exited"]);

interface ResumeAll {
  entries: { shortId: string; outcome: string; error: { code: string; message: string } | null }[];
  summary: { launched: number; queued: number; failed: number };
}

export class ResumeAllButton {
  private running = false;

  constructor(private readonly table: SessionTable) {
    byId("resume-all").addEventListener("click", () => void this.run());
  }

  private died(): number {
    let n = 0;
    this.table.rows.forEach((r) => {
      if (r.kind === "ok" && !r.archived && r.offlineReason && DIED.has(r.offlineReason)) n += 1;
    });
    return n;
  }

  render(): void {
    const n = this.died();
    const button = byId<HTMLButtonElement>("resume-all");
    button.hidden = n === 0 && !this.running;
    button.disabled = this.running;
    button.textContent = `resume ${n} died`;
    button.title = "bring back every session whose agent died, each into its own conversation (spex session resume --all)";
  }

  private async run(): Promise<void> {
    const n = this.died();
    if (n === 0 || this.running) return;
    if (!confirm(`Resume ${n} session${n === 1 ? "" : "s"} whose agent died? Each goes back into its own conversation, within sessions.maxActive; the rest wait in the launch queue. Sessions you stopped stay stopped.`)) return;
    this.running = true;
    this.render();
    try {
      const r = await api<ResumeAll>("POST", "/api/sessions/resume-all", {});
      const failed = r.entries.filter((e) => e.outcome === "failed").map((e) => `${e.shortId}: ${e.error?.message ?? ""} [${e.error?.code ?? ""}]`);
      outcome(`resume --all: launched ${r.summary.launched}, queued ${r.summary.queued}${failed.length ? `, failed ${failed.length} — ${failed.join("; ")}` : ""}`, { error: failed.length > 0 });
    } catch (e) {
      outcome(`resume --all refused: ${(e as Error).message}`, { error: true });
    } finally {
      this.running = false;
      this.render();
    }
  }
}
