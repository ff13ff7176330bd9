// Groups, tasks and reservations of the project, shown beside the sessions
// (read-only). Reloaded when sessions change (at most every few seconds) and
// every few seconds while the page is shown: tasks and leases change without
// a session event.
import { api } from "./api";
import { byId, el } from "./dom";

interface Group {
  path: string;
  depth: number;
  effectiveDirectory: string;
  sessions: number;
}
interface Task {
  id: string;
  title: string;
  state: string;
  owner_label: string;
  blocked: boolean;
}
interface Lease {
  pattern: string;
  mode: string;
  holder: string;
  expires_in: string;
}

const RELOAD_MS = 3000;

export class CoordPanel {
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  groups: Group[] = [];

  constructor() {
    setInterval(() => void (document.hidden || this.reload()), 5000);
  }

  /** Ask for a reload; several asks within RELOAD_MS make one. */
  reload(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.last + RELOAD_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.last = Date.now();
      void this.load();
    }, wait);
  }

  private async load(): Promise<void> {
    const [groups, tasks, leases] = await Promise.all([
      api<{ groups: Group[] }>("GET", "/api/groups").then((r) => r.groups, () => null),
      api<{ tasks: Task[] }>("GET", "/api/tasks").then((r) => r.tasks, () => null),
      api<{ reservations: Lease[] }>("GET", "/api/reservations").then((r) => r.reservations, () => null),
    ]);
    this.groups = groups ?? [];
    this.fill("coord-groups", groups, (g) => [`${"  ".repeat(g.depth)}${g.path}`, `${g.sessions} session${g.sessions === 1 ? "" : "s"}${g.effectiveDirectory ? ` · starts in ${g.effectiveDirectory}` : ""}`]);
    this.fill("coord-tasks", tasks, (t) => [t.title, `${t.state}${t.owner_label ? ` · ${t.owner_label}` : ""}${t.blocked ? " · blocked" : ""}`]);
    this.fill("coord-leases", leases, (l) => [l.pattern, `${l.mode} · ${l.holder} · ${l.expires_in}`]);
  }

  private fill<T>(id: string, items: T[] | null, line: (item: T) => [string, string]): void {
    const list = byId(id);
    list.textContent = "";
    const count = byId(`${id}-count`);
    count.textContent = items ? String(items.length) : "–";
    if (!items) {
      list.appendChild(el("li", "muted", "not available from this backend"));
      return;
    }
    if (items.length === 0) list.appendChild(el("li", "muted", "none"));
    for (const item of items) {
      const [name, facts] = line(item);
      const li = el("li");
      li.appendChild(el("span", "cn", name));
      li.appendChild(el("span", "cf", facts));
      list.appendChild(li);
    }
  }
}
