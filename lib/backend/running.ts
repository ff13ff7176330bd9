// The way back into a running backend's dashboard (issue 24 item 3): its
// URL with the token, read from the project's endpoint record and token file
// (the user's own files), for `spex dashboard`, `serve --url` and the hint a
// second `serve` prints. A session's panel is a fragment of the page's URL.
import { SpexError } from "../errors";
import { resolveSelector } from "../sessions";
import type { ProjectStore } from "../store";
import { type EndpointRecord, endpointAlive, readEndpoint, readToken } from "./endpoint";

/** The dashboard URL of a backend at `url` holding `token`, opened on a session's panel when `session` is given. */
export function dashboardUrl(url: string, token: string, session?: string): string {
  return `${url}/?token=${token}${session ? `#/s/${encodeURIComponent(session)}` : ""}`;
}

export interface RunningDashboard {
  endpoint: EndpointRecord;
  url: string;
  dashboard: string;
}

/** The project's running backend and its dashboard URL, or undefined when none runs. */
export function findRunning(store: ProjectStore): RunningDashboard | undefined {
  const endpoint = readEndpoint(store);
  if (!endpoint || !endpointAlive(endpoint)) return undefined;
  const token = readToken(store);
  if (!token) return undefined;
  return { endpoint, url: endpoint.url, dashboard: dashboardUrl(endpoint.url, token) };
}

export function requireRunning(store: ProjectStore): RunningDashboard {
  const running = findRunning(store);
  if (!running) {
    throw new SpexError("backend_not_running", `no backend serves ${store.root}`, {
      hint: "start one with `spex serve` (it prints the dashboard URL; later `spex dashboard` prints it again)",
    });
  }
  return running;
}

/** The running backend's dashboard URL, on a session's panel when a selector is given. */
export function dashboardFor(store: ProjectStore, selector?: string): RunningDashboard {
  const running = requireRunning(store);
  if (!selector) return running;
  const id = resolveSelector(store, selector).id;
  const token = new URL(running.dashboard).searchParams.get("token") ?? "";
  return { ...running, dashboard: dashboardUrl(running.url, token, id) };
}
