// The terminal (xterm.js, three quarters of the page's code) loads the first
// time a terminal tab opens, not with the page: the list shows sooner.
import type { PaneView } from "./detail";
import { byId } from "./dom";

export class LazyTerminal implements PaneView {
  private loaded: Promise<PaneView> | null = null;
  private wanted: string | null = null;

  open(id: string): void {
    this.wanted = id;
    this.loaded ??= import("./terminal").then((m) => new m.LiveTerminal());
    this.loaded.then(
      (t) => void (this.wanted === id && t.open(id)),
      () => {
        // Say so rather than show an empty box, and try again next time (a
        // backend restarted from a newer build serves other file names).
        this.loaded = null;
        if (this.wanted === id) byId("term-status").textContent = "the terminal could not load: reload the page";
      },
    );
  }

  close(): void {
    this.wanted = null;
    void this.loaded?.then(
      (t) => t.close(),
      () => undefined,
    );
  }
}
