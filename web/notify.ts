// Browser notifications, opt-in (the header's bell): one when a session
// starts needing you (asking, error, review) — a transition seen on the
// event stream, never the state rows load with. The choice is kept for this
// origin (localStorage); the browser's permission is asked when it is turned on.
import { byId } from "./dom";
import { needsYou } from "./order";
import type { Row } from "./types";
import { rowNote } from "./words";

const KEY = "spex-notify";

function what(row: Row): string {
  const label = row.kind === "ok" ? row.label : "a session";
  if (row.display === "asking") return `${label} is asking`;
  if (row.display === "error") return `${label} hit an error`;
  return `${label} proposes merging`;
}

export class Notifier {
  private on = false;

  constructor(private readonly open: (id: string) => void) {
    const button = byId("notify");
    if (typeof Notification === "undefined") {
      button.hidden = true;
      return;
    }
    try {
      this.on = localStorage.getItem(KEY) === "1" && Notification.permission === "granted";
    } catch {
      this.on = false;
    }
    this.show();
    button.addEventListener("click", () => void this.toggle());
  }

  private show(): void {
    const button = byId("notify");
    button.setAttribute("aria-pressed", String(this.on));
    button.title = this.on ? "notifications on: a session that starts needing you raises one (click to stop)" : "notify me when a session starts needing me";
  }

  private async toggle(): Promise<void> {
    let on = !this.on;
    if (on && Notification.permission !== "granted") on = (await Notification.requestPermission()) === "granted";
    this.on = on;
    try {
      localStorage.setItem(KEY, on ? "1" : "0");
    } catch {
      // kept for this page only
    }
    this.show();
  }

  /** A row changed from `before` to `after` (events only). */
  transition(before: Row | undefined, after: Row): void {
    if (!this.on || !before || needsYou(before) || !needsYou(after)) return;
    const n = new Notification(what(after), { body: after.kind === "ok" ? (after.note || rowNote(after)) : after.error, tag: `spex-${after.id}` });
    n.onclick = () => {
      window.focus();
      this.open(after.id);
      n.close();
    };
  }
}
