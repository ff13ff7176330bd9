// Start a session from the page: prompt, launcher, base, name, group. One
// Idempotency-Key per draft, kept until the backend answers with a session, so
// a double click or a retry after a dropped answer makes one session.
import { api } from "./api";
import { byId, freshKey } from "./dom";
import type { CoordPanel } from "./coord";
import type { SessionTable } from "./table";

interface Created {
  session_id: string;
  replayed: boolean;
}

const BUILT_IN_LAUNCHERS = ["claude", "codex", "gemini", "shell"];

export class CreateForm {
  private key = freshKey();

  constructor(private readonly table: SessionTable, private readonly coord: CoordPanel, private readonly opened: (id: string) => void) {
    byId("new-toggle").addEventListener("click", () => this.toggle());
    byId("new-cancel").addEventListener("click", () => this.toggle(false));
    byId("new-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.submit();
    });
    // Ctrl+Enter starts it from the prompt box (Enter is a new line there).
    byId("new-prompt").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        byId<HTMLFormElement>("new-form").requestSubmit();
      }
    });
    // A changed draft is a new request: it gets a new key.
    for (const id of ["new-prompt", "new-launcher", "new-base", "new-name", "new-group"]) byId(id).addEventListener("input", () => (this.key = freshKey()));
  }

  private toggle(show?: boolean): void {
    const form = byId("new-form");
    form.hidden = show === undefined ? !form.hidden : !show;
    if (!form.hidden) {
      this.fillChoices();
      byId("new-prompt").focus();
    }
  }

  /** Launchers and groups the fleet already uses, as suggestions. */
  private fillChoices(): void {
    const launchers = new Set(BUILT_IN_LAUNCHERS);
    const groups = new Set<string>();
    this.table.rows.forEach((r) => {
      if (r.kind !== "ok") return;
      if (r.launcher) launchers.add(r.launcher);
      if (r.group) groups.add(r.group);
    });
    const fill = (id: string, values: Set<string>) => {
      const list = byId<HTMLDataListElement>(id);
      list.textContent = "";
      for (const v of [...values].sort()) {
        const o = document.createElement("option");
        o.value = v;
        list.appendChild(o);
      }
    };
    fill("launcher-choices", launchers);
    fill("group-choices", groups);
  }

  private async submit(): Promise<void> {
    const value = (id: string) => byId<HTMLInputElement | HTMLTextAreaElement>(id).value;
    const prompt = value("new-prompt");
    const status = byId("new-status");
    if (!prompt.trim()) {
      status.textContent = "a prompt is needed";
      return;
    }
    const body: Record<string, string> = { prompt };
    for (const [field, id] of [["launcher", "new-launcher"], ["base", "new-base"], ["name", "new-name"]] as const) {
      const v = value(id).trim();
      if (v) body[field] = v;
    }
    // A group that does not exist refuses before anything is made (as `session new --group` does).
    const group = value("new-group").trim().replace(/^\/+|\/+$/g, "");
    if (group && !this.coord.groups.some((g) => g.path === group)) {
      status.textContent = `there is no group "${group}" (make it with: spex group new ${group})`;
      status.className = "error";
      return;
    }
    const key = this.key;
    status.textContent = "starting…";
    status.className = "muted";
    try {
      const made = await api<Created>("POST", "/api/sessions", body, { "idempotency-key": key });
      if (group) await api("POST", "/api/groups/file", { group, sessions: [made.session_id] });
      if (key === this.key) {
        // Answered: the next draft is a new request.
        this.key = freshKey();
        (byId("new-form") as HTMLFormElement).reset();
        byId("new-form").hidden = true;
      }
      status.textContent = "";
      this.opened(made.session_id);
    } catch (e) {
      status.textContent = (e as Error).message;
      status.className = "error";
    }
  }
}
