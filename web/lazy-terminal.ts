// The terminal (xterm.js, three quarters of the page's code) loads the first
// time a terminal tab opens, not with the page: the list shows sooner.
import type { PaneView } from "./detail";

export class LazyTerminal implements PaneView {
  private loaded: Promise<PaneView> | null = null;
  private wanted: string | null = null;

  open(id: string): void {
    this.wanted = id;
    this.loaded ??= import("./terminal").then((m) => new m.LiveTerminal());
    void this.loaded.then((t) => {
      if (this.wanted === id) t.open(id);
    });
  }

  close(): void {
    this.wanted = null;
    void this.loaded?.then((t) => t.close());
  }
}
