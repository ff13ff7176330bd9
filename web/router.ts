// Each panel has a URL: `#/s/<id>` (overview), `#/s/<id>/changes`,
// `#/s/<id>/terminal`. Opening a session is a new history entry (Back closes
// it), a tab change replaces the entry; the URL survives a reload, and the
// URL `spex dashboard SEL` prints (the token, then the fragment) opens the
// panel in a fresh tab.
export type Tab = "overview" | "changes" | "terminal";
export const TABS: readonly Tab[] = ["overview", "changes", "terminal"];

export interface Route {
  id: string;
  tab: Tab;
}

export function parseRoute(hash: string): Route | null {
  const m = /^#\/s\/([^/]+)(?:\/([a-z]+))?\/?$/.exec(hash);
  if (!m) return null;
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  const tab = (TABS as readonly string[]).includes(m[2] ?? "") ? (m[2] as Tab) : "overview";
  return { id, tab };
}

export function routeHash(r: Route | null): string {
  if (!r) return "";
  return `#/s/${encodeURIComponent(r.id)}${r.tab === "overview" ? "" : `/${r.tab}`}`;
}

export class Router {
  constructor(private readonly follow: (r: Route | null) => void) {
    // Back, forward, or a fragment typed into the address bar.
    addEventListener("popstate", () => this.follow(this.current()));
  }

  current(): Route | null {
    return parseRoute(location.hash);
  }

  /** Put `r` in the address bar: a new entry (`push`) or in place of the current one. */
  show(r: Route | null, push: boolean): void {
    const hash = routeHash(r);
    if (location.hash === hash || (!hash && !location.hash)) return;
    const url = hash || location.pathname + location.search;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }
}
