// A real terminal for the board: a pane of a tmux server of its own (not the
// one the sessions run on), driven with send-keys and read with capture-pane,
// as a person at a terminal would see it.
import { expect } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, waitFor } from "./sandbox";

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

/** Start the board after a line of the shell's own, the tty settings saved to compare when it has gone; once its header shows. */
export async function openBoard(t: BoardTerminal, sb: Sandbox, command = `'${SPEX_BIN}' board`): Promise<void> {
  t.type(`stty -g > '${sb.dir}/stty-before'; echo before-the-board; ${command}; echo "board exited $?"`);
  t.keys("Enter");
  await t.until("spex board ·");
}

/** The terminal as the board found it, once the shell says the board exited with `exit`: the shell's screen and tty settings back. */
export async function expectRestored(t: BoardTerminal, sb: Sandbox, exit: number): Promise<string> {
  const after = await t.until(/board exited \d+/);
  expect(after).toContain(`board exited ${exit}`);
  // The shell's own lines are back, the board's are gone, and tmux says the main screen is showing with the cursor on.
  expect(after).toContain("before-the-board");
  expect(after).not.toContain("spex board ·");
  expect(t.format("#{alternate_on} #{cursor_flag}")).toBe("0 1");
  t.type(`stty -g > '${sb.dir}/stty-after'; echo compared`);
  t.keys("Enter");
  await t.until(/^compared$/m);
  expect(readFileSync(join(sb.dir, "stty-after"), "utf8")).toBe(readFileSync(join(sb.dir, "stty-before"), "utf8"));
  return after;
}

/** The board's process: the one child of the pane's shell. */
export function boardPid(t: BoardTerminal): number {
  const kids = spawnSync("pgrep", ["-P", t.format("#{pane_pid}")], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean);
  if (kids.length !== 1) throw new Error(`expected one board process under the pane's shell, found ${kids.length}`);
  return Number(kids[0]);
}
