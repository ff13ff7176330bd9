// The dashboard's files, served at `/`, `/app.js` and `/app.css`: the page,
// script and stylesheet scripts/build-web.ts bundles from web/ at build time
// (embedded, so the compiled binary and the Node bundle both carry them).
import { randomBytes } from "node:crypto";
import { DASHBOARD_CSS, DASHBOARD_HTML, DASHBOARD_JS } from "../../generated/dashboard";

export interface Asset {
  type: string;
  /** The body and extra headers of one answer (the page gets a fresh style nonce each time). */
  render(): { body: string; headers: Record<string, string> };
}

// Scripts only from this origin, no inline script, no framing: the page shows
// agent output and prompts, which are untrusted text. Inline <style> elements
// only with this answer's nonce: the terminal (xterm.js) makes its own.
function page(): { body: string; headers: Record<string, string> } {
  const nonce = randomBytes(16).toString("base64");
  const csp = `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { body: DASHBOARD_HTML.replace("__STYLE_NONCE__", nonce), headers: { "content-security-policy": csp } };
}

const fixed = (body: string) => () => ({ body, headers: {} });

export const DASHBOARD_ASSETS: Record<string, Asset> = {
  "/": { type: "text/html; charset=utf-8", render: page },
  "/app.js": { type: "text/javascript; charset=utf-8", render: fixed(DASHBOARD_JS) },
  "/app.css": { type: "text/css; charset=utf-8", render: fixed(DASHBOARD_CSS) },
};
