// The dashboard's files, served at `/`, `/app.js` and `/app.css`. They are
// TypeScript strings so the compiled binary and the Node bundle both carry them.
import { APP_JS } from "./app";
import { PAGE_HTML } from "./page";
import { APP_CSS } from "./style";

export interface Asset {
  type: string;
  body: string;
  headers: Record<string, string>;
}

// Scripts and styles only from this origin, no inline code, no framing: the
// page shows agent output and prompts, which are untrusted text.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const DASHBOARD_ASSETS: Record<string, Asset> = {
  "/": { type: "text/html; charset=utf-8", body: PAGE_HTML, headers: { "content-security-policy": CSP } },
  "/app.js": { type: "text/javascript; charset=utf-8", body: APP_JS, headers: {} },
  "/app.css": { type: "text/css; charset=utf-8", body: APP_CSS, headers: {} },
};
