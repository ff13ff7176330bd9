// The dashboard's files: the page at `/`, and the script, stylesheet and icon
// scripts/build-web.ts bundles from web/ at build time, each under a path
// holding its content hash (embedded, so the compiled binary and the Node
// bundle both carry them). The hashed files never change under their name, so
// browsers keep them for good; the page is never kept (it names the current
// files and carries a fresh style nonce). Each file is sent brotli or gzip
// compressed when the browser takes it. Only the brotli form is embedded
// (scripts/build-web.ts: the Node bundle reads and compiles all it carries on
// every start); the plain text and the gzip form are made from it the first
// time a browser asks for them, once per server.
import { randomBytes } from "node:crypto";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import { DASHBOARD_FILES, DASHBOARD_HTML } from "../../generated/dashboard";

export interface DashboardAnswer {
  type: string;
  body: string | Buffer;
  headers: Record<string, string>;
}

// Scripts only from this origin, no inline script, no framing: the page shows
// agent output and prompts, which are untrusted text. Inline <style> elements
// only with this answer's nonce: the terminal (xterm.js) makes its own.
function page(): DashboardAnswer {
  const nonce = randomBytes(16).toString("base64");
  const csp = `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { type: "text/html; charset=utf-8", body: DASHBOARD_HTML.replace("__STYLE_NONCE__", nonce), headers: { "content-security-policy": csp } };
}

const FOREVER = "public, max-age=31536000, immutable";

interface Encoded {
  type: string;
  /** base64, as embedded */
  br: string;
  brBytes?: Buffer;
  text?: string;
  gzip?: Buffer;
}

const files = new Map<string, Encoded>(DASHBOARD_FILES.map((f) => [f.path, { ...f }]));

/** The encodings a request's Accept-Encoding takes (a `q=0` refuses one). */
function accepted(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) out.add(name.trim());
  }
  return out;
}

/** The answer for a dashboard path, or undefined when the path is not one of the page's. */
export function dashboardAnswer(path: string, acceptEncoding: string | undefined): DashboardAnswer | undefined {
  if (path === "/" || path === "/index.html") return page();
  const f = files.get(path);
  if (!f) return undefined;
  const br = (f.brBytes ??= Buffer.from(f.br, "base64"));
  const text = () => (f.text ??= brotliDecompressSync(br).toString("utf8"));
  const headers: Record<string, string> = { "cache-control": FOREVER, vary: "Accept-Encoding" };
  const takes = accepted(acceptEncoding);
  if (takes.has("br")) return { type: f.type, body: br, headers: { ...headers, "content-encoding": "br" } };
  if (takes.has("gzip")) return { type: f.type, body: (f.gzip ??= gzipSync(Buffer.from(text()), { level: 9 })), headers: { ...headers, "content-encoding": "gzip" } };
  return { type: f.type, body: text(), headers };
}

/** The hashed paths of the page's files (for tests and the route table). */
export const DASHBOARD_PATHS: string[] = [...files.keys()];
