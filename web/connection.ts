// The page's connection to its backend: the event stream, the indicator in
// the header (live, reconnecting, not your backend), and the lock screen a
// page without the right token shows, with a box to paste the URL
// `spex dashboard` prints (or the token alone).
import { keepToken, setProven, token, whenUnauthorized } from "./api";
import { byId } from "./dom";
import { openStream, type StreamFrame } from "./stream";

let locked = false;

function conn(text: string, up: boolean): void {
  const c = byId("conn");
  c.textContent = text;
  c.className = `conn ${up ? "up" : "down"}`;
}

export function notice(text: string): void {
  const n = byId("notice");
  n.textContent = text;
  n.hidden = !text;
}

/** Without the right token the backend shows nothing: say so instead of an empty table, and take a new one. */
function needsToken(code: string): void {
  locked = true;
  setProven(false);
  document.body.classList.add("locked");
  conn("needs token", false);
  notice(
    code === "token_invalid"
      ? "This page's token is not the running backend's (was it started with --rotate-token, or on another port?). Paste the URL that `spex dashboard` prints:"
      : "This dashboard needs its token. Paste the URL that `spex dashboard` (or `spex serve`) prints:",
  );
  byId("token-form").hidden = false;
  byId("token-input").focus();
}

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

/** The event stream, with `onFrame` for its frames and `onProven` as soon as the backend proved itself (before the stream answers). */
export function connect(onFrame: (f: StreamFrame) => void, onProven: (instanceId: string) => void): void {
  byId("token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const box = byId<HTMLInputElement>("token-input");
    if (!keepToken(box.value)) {
      byId("token-why").textContent = "that is neither the dashboard URL nor a token";
      return;
    }
    location.replace(location.pathname + location.hash);
  });
  whenUnauthorized(needsToken);
  if (!token) {
    needsToken("token_required");
    return;
  }
  openStream({
    path: "/api/events",
    resume: true,
    onFrame,
    onProven: (instance) => {
      setProven(true);
      onProven(instance);
    },
    onOpen: () => {
      setProven(true);
      conn("live", true);
      notice("");
      byId("token-form").hidden = true;
    },
    onDrop: (ms) => {
      setProven(false);
      if (locked) return false;
      conn(`reconnecting in ${seconds(ms)}`, false);
      return true;
    },
    onUnproven: (ms) => {
      setProven(false);
      conn(`not your backend at this address: retrying in ${seconds(ms)}`, false);
      // Either the backend came back with a new token, or another program took its port: the token stayed here.
      notice("Something answers at this address but cannot prove it holds this tab's token (so the token was not sent): a backend restarted with --rotate-token, or another program on its port. If it is yours, paste the URL that `spex dashboard` prints:");
      byId("token-form").hidden = false;
    },
    onRefused: needsToken,
  });
}
