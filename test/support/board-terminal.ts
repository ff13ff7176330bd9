// A real terminal for the board: a pane of a tmux server of its own (not the
// one the sessions run on), driven with send-keys and read with capture-pane,
// as a person at a terminal would see it.
import { spawnSync } from "node:child_process";
import { type Sandbox, waitFor } from "./sandbox";

export interface BoardTerminal {
  socket: string;
  /** The pane's visible text now (-e: with its colour sequences). */
  screen(styled?: boolean): string;
  keys(...keys: string[]): void;
  /** Type text literally (no key names). */
  type(text: string): void;
  /** The screen once it shows `text` (polled, never slept on). */
  until(text: string | RegExp, timeoutMs?: number): Promise<string>;
  untilGone(text: string, timeoutMs?: number): Promise<string>;
  /** A tmux format of the pane (`#{alternate_on}`, `#{cursor_flag}`). */
  format(f: string): string;
  kill(): void;
}

export function boardTerminal(sb: Sandbox, opts: { columns?: number; rows?: number; env?: Record<string, string>; name?: string } = {}): BoardTerminal {
  const socket = `${sb.tmuxSocket}-${opts.name ?? "term"}`;
  const env = { ...sb.env, TERM: "xterm-256color", ...(opts.env ?? {}) };
  const tmux = (args: string[]) => spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { env, encoding: "utf8" });
  const made = tmux(["new-session", "-d", "-s", "term", "-x", String(opts.columns ?? 100), "-y", String(opts.rows ?? 30), "-c", sb.repo, "bash --norc --noprofile"]);
  if (made.status !== 0) throw new Error(`the test terminal did not start: ${made.stderr}`);
  // The pane's environment is the server's: make sure it is the sandbox's, whatever started the server.
  for (const [k, v] of Object.entries(env)) tmux(["set-environment", "-g", k, v]);
  const t: BoardTerminal = {
    socket,
    screen: (styled = false) => tmux(["capture-pane", "-p", ...(styled ? ["-e"] : []), "-t", "term"]).stdout,
    keys: (...keys) => void tmux(["send-keys", "-t", "term", ...keys]),
    type: (text) => void tmux(["send-keys", "-t", "term", "-l", text]),
    async until(text, timeoutMs = 15000) {
      try {
        return await waitFor(() => {
          const s = t.screen();
          return (typeof text === "string" ? s.includes(text) : text.test(s)) ? s : undefined;
        }, `the terminal to show ${String(text)}`, timeoutMs, 20);
      } catch (e) {
        throw new Error(`${(e as Error).message}; the screen:\n${t.screen()}`);
      }
    },
    async untilGone(text, timeoutMs = 15000) {
      try {
        return await waitFor(() => (t.screen().includes(text) ? undefined : t.screen()), `the terminal to stop showing ${text}`, timeoutMs, 20);
      } catch (e) {
        throw new Error(`${(e as Error).message}; the screen:\n${t.screen()}`);
      }
    },
    format: (f) => tmux(["display-message", "-p", "-t", "term", f]).stdout.trim(),
    kill: () => void tmux(["kill-server"]),
  };
  return t;
}
