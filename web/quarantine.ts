// The recovery control of a corrupt row (seed 001): quarantine moves its
// session.json aside once the backend re-proves that what the caller names
// (adapter, native thread or none, tmux session, worktree, branch) is gone;
// restore moves the same bytes back. Both are the CLI's and HTTP's one
// operation (POST /api/quarantine, /api/quarantine/restore); a refusal shows
// its details. After a quarantine the row leaves the list: its restore is
// offered in the outcome that stays on screen.
import { api } from "./api";
import { byId } from "./dom";
import { notRemoving, outcome, removing } from "./outcomes";

const FIELDS = ["adapter", "thread", "tmux", "worktree", "branch"] as const;

export class QuarantineForm {
  private id: string | null = null;

  constructor(private readonly report: (o: string | Error) => void) {
    byId("quarantine-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.submit();
    });
  }

  /** Shown for a corrupt row, empty (what the record said is exactly what cannot be read). */
  show(id: string | null): void {
    const form = byId<HTMLFormElement>("quarantine-form");
    if (id !== this.id) form.reset();
    this.id = id;
    form.hidden = id === null;
  }

  private async submit(): Promise<void> {
    const id = this.id;
    if (!id) return;
    const value = (f: string) => byId<HTMLInputElement | HTMLSelectElement>(`q-${f}`).value.trim();
    const body: Record<string, string> = { id };
    for (const f of FIELDS) if (value(f) || f === "thread") body[f] = value(f);
    this.report("quarantining…");
    removing(id);
    try {
      const r = await api<{ bundle: string }>("POST", "/api/quarantine", body);
      this.report(`quarantined: ${r.bundle}`);
      outcome(`quarantined the corrupt record of ${id.slice(0, 8)} (${r.bundle})`, {
        actions: [
          {
            label: "restore",
            run: async () => {
              await api("POST", "/api/quarantine/restore", { id });
              return `restored the record of ${id.slice(0, 8)} from quarantine (it reads corrupt again)`;
            },
          },
        ],
      });
    } catch (e) {
      notRemoving(id);
      this.report(e as Error);
    }
  }
}
