// `spex serve`: one HTTP backend per project. It claims the project's
// endpoint record under a lock (a live recorded backend refuses the second
// one; a dead one's record is replaced), serves the API, the event stream and
// the dashboard, and removes its record when it stops.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { SpexError, errnoCode } from "../errors";
import { withLock } from "../lock";
import { selfIdentity } from "../proc";
import type { ProjectStore } from "../store";
import { VERSION } from "../version";
import { type EndpointRecord, TOKEN_SHAPE, backendPaths, endpointAlive, newToken, readEndpoint, readPort, readToken, removeEndpoint, writeEndpoint } from "./endpoint";
import { dashboardUrl } from "./running";
import { EventHub } from "./events";
import { SessionFeed } from "./feed";
import { driveLaunchQueue } from "./queue-driver";
import { allowedHosts, checkHost, checkToken, httpError, presentedToken, sendAsset, sendError, sendJson } from "./http";
import { KeyedCreates } from "./keyed";
import { loadHttp } from "./lazy";
import { matchRoute } from "./routes";
import { panesOf } from "./panes";
import type { Instance } from "./route";

export interface ServeOptions {
  host?: string;
  /** Absent: the port the project's backend had last time (any free one the first time). */
  port?: number;
  /** Make a new token instead of keeping the project's (open tabs must reopen the URL). */
  rotateToken?: boolean;
}

export interface RunningBackend {
  instance: Instance;
  endpoint: EndpointRecord;
  url: string;
  /** The dashboard URL, carrying the token once. */
  dashboardUrl: string;
  token: string;
  /** The token is new: asked for, made for the first serve, or because the port moved. */
  tokenIsNew: boolean;
  /** The project's port was taken by another program: this backend listens elsewhere, with a new token. */
  moved?: { from: number; tokenRotated: true };
  close(): Promise<void>;
}

/** A value read from a backend file, or undefined when that file cannot be trusted (it is then replaced). */
function trusted<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch (e) {
    if (e instanceof SpexError && e.code === "backend_file_unsafe") return undefined;
    throw e;
  }
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off("listening", onListening);
      reject(e);
    };
    const onListening = () => {
      server.off("error", onError);
      const addr = server.address();
      resolve(typeof addr === "object" && addr ? addr.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

export async function startBackend(store: ProjectStore, opts: ServeOptions = {}): Promise<RunningBackend> {
  const host = opts.host ?? "127.0.0.1";
  let token = "";
  let freshToken = false;
  let moved: RunningBackend["moved"];
  const self = selfIdentity();
  const instance: Instance = { instanceId: randomUUID(), root: store.root, pid: self.pid, startedAt: new Date().toISOString(), version: VERSION };
  const hub = new EventHub(() => ({ instanceId: instance.instanceId, root: instance.root }));
  const feed = new SessionFeed(store, hub);
  const keyed = new KeyedCreates();
  let allowed = new Set<string>();
  // The page's files (~0.5 MB of text) load with the server, not with every command.
  const { dashboardAnswer } = await import("./dashboard");

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      checkHost(req, allowed);
      const url = new URL(req.url ?? "/", "http://backend.invalid");
      const method = req.method ?? "GET";
      // The page's files hold no data (everything arrives through the API with the token).
      if (method === "GET" || method === "HEAD") {
        const asset = dashboardAnswer(url.pathname, req.headers["accept-encoding"]);
        if (asset) return sendAsset(res, asset.type, asset.body, asset.headers);
      }
      const match = matchRoute(method, url.pathname);
      if (!match) throw httpError("not_found", `no route ${method} ${url.pathname.slice(0, 200)}`, 404, "see docs/backend.md for the routes");
      if ("allowed" in match) {
        res.setHeader("allow", match.allowed.join(", "));
        throw httpError("method_not_allowed", `${method} is not served on ${url.pathname.slice(0, 200)}`, 405);
      }
      if (!match.route.open) checkToken(presentedToken(req), token);
      const reply = await match.route.handle({ store, instance, keyed, hub, token, req, res, url, params: match.params });
      if (reply) sendJson(res, reply.status, reply.body, req.headers["accept-encoding"]);
    } catch (error) {
      sendError(res, error);
    }
  };

  const { createServer } = await loadHttp();
  const server = createServer((req, res) => void handle(req, res));
  const paths = backendPaths(store);
  const endpoint = await withLock(
    paths.lock,
    async () => {
      const existing = readEndpoint(store);
      if (existing && endpointAlive(existing)) {
        const held = trusted(() => readToken(store));
        const dashboard = held ? dashboardUrl(existing.url, held) : "";
        throw new SpexError("backend_running", `a backend already serves ${store.root}: pid ${existing.pid} at ${existing.url}`, {
          hint: `${dashboard ? `its dashboard is ${dashboard} (\`spex dashboard --open\` opens it)` : "use that one"}, or stop it first: kill ${existing.pid}`,
          details: { pid: existing.pid, url: existing.url, dashboard },
        });
      }
      // The project's port from last time, so open tabs find this backend where they left the last one.
      const remembered = opts.port === undefined ? trusted(() => readPort(store)) : undefined;
      let port: number;
      try {
        port = await listen(server, host, opts.port ?? remembered ?? 0);
      } catch (e) {
        const code = errnoCode(e);
        if (remembered !== undefined && code === "EADDRINUSE") {
          // Another program took the port: tabs that kept knocking there may have shown it the token.
          port = await listen(server, host, 0);
          moved = { from: remembered, tokenRotated: true };
        } else {
          throw new SpexError(code === "EADDRINUSE" ? "port_in_use" : "listen_failed", `cannot listen on ${host}:${opts.port ?? 0}: ${(e as Error).message}`, {
            hint: code === "EADDRINUSE" ? "pick another --port, or leave it out to take any free port" : "check --host and --port",
          });
        }
      }
      const kept = opts.rotateToken || moved ? undefined : trusted(() => readToken(store));
      freshToken = !(kept && TOKEN_SHAPE.test(kept));
      token = freshToken ? newToken() : kept!;
      const record: EndpointRecord = {
        instanceId: instance.instanceId,
        url: `http://${urlHost(host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host)}:${port}`,
        host,
        port,
        root: store.root,
        pid: self.pid,
        start: self.start,
        boot: self.boot,
        startedAt: instance.startedAt,
        version: VERSION,
      };
      allowed = allowedHosts(host, port);
      writeEndpoint(store, record, token);
      return record;
    },
    { purpose: "serve" },
  );
  feed.start();
  const stopQueue = driveLaunchQueue(store);

  let closed = false;
  return {
    instance,
    endpoint,
    url: endpoint.url,
    dashboardUrl: dashboardUrl(endpoint.url, token),
    token,
    tokenIsNew: freshToken,
    moved,
    async close() {
      if (closed) return;
      closed = true;
      removeEndpoint(store, instance.instanceId);
      stopQueue();
      // Windows a dashboard writer sized get their own size back.
      await panesOf(hub).restoreAll().catch(() => undefined);
      feed.stop();
      hub.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
    },
  };
}
