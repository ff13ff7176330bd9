// Attaching a terminal to a session's tmux session without ever nesting one
// tmux client inside another: outside tmux, attach; inside tmux on the same
// server, switch the current client; inside tmux on another server, open the
// session in a popup (tmux ≥ 3.2) or a new window of the caller's server,
// with a client that is told it is not nested (TMUX unset).
import { spawnSync } from "node:child_process";
import { SpexError } from "../errors";
import { exactSession, tmuxSync } from "./index";
import { formatLiteral, shellQuote, tmuxWord } from "./quote";

export type AttachWay = "attach" | "switch" | "popup" | "window";

export interface AttachFacts {
  /** The session's tmux socket name (`tmux -L`). */
  socket: string;
  /** The tmux session name. */
  session: string;
  /** The session's server socket path (`#{socket_path}`). */
  serverPath: string;
  /** The caller's $TMUX (`<socket path>,<pid>,<session>`), undefined outside tmux. */
  callerTmux: string | undefined;
  /** The installed tmux version, e.g. [3, 3]. */
  version: [number, number];
  /** The caller's locale names no charset (localeSaysNothing): the client is told the terminal speaks UTF-8. */
  assumeUtf8?: boolean;
}

export interface AttachPlan {
  way: AttachWay;
  /** tmux arguments (after `tmux`). */
  args: string[];
  /** Whether the call needs the caller's TMUX/TMUX_PANE (to find the client to act on). */
  keepCallerTmux: boolean;
}

/** tmux -V text → [major, minor]; unknown text counts as new enough. */
export function parseTmuxVersion(text: string): [number, number] {
  const m = /(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : [99, 0];
}

/** The socket path of the server a $TMUX value points at. */
export function callerServerPath(callerTmux: string): string {
  const comma = callerTmux.indexOf(",");
  return comma < 0 ? callerTmux : callerTmux.slice(0, comma);
}

/**
 * The locale says nothing of the terminal's charset: LC_ALL, LC_CTYPE and LANG
 * (the first one set decides, as for tmux) unset, empty, C or POSIX. That is
 * what an ssh login without AcceptEnv, cron or a container gives, in front of
 * a terminal that is UTF-8 all the same; a tmux client there would draw every
 * non-ASCII character of the agent's screen as `_`. A locale that names a
 * charset (en_US.ISO-8859-1, say) is a choice and is left to tmux.
 */
export function localeSaysNothing(env: NodeJS.ProcessEnv): boolean {
  const first = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((v) => v !== undefined && v !== "");
  return first === undefined || first === "C" || first === "POSIX";
}

export function attachPlan(f: AttachFacts): AttachPlan {
  const target = `=${f.session}`;
  if (!f.callerTmux) return { way: "attach", args: [...(f.assumeUtf8 ? ["-u"] : []), "-S", f.serverPath, "attach-session", "-t", target], keepCallerTmux: false };
  // Both paths as tmux spells them (it resolves the socket folder itself), so equal text is the same server.
  const callerPath = callerServerPath(f.callerTmux);
  if (callerPath === f.serverPath) return { way: "switch", args: ["-S", f.serverPath, "switch-client", "-t", target], keepCallerTmux: true };
  // A client of the session's own server, run by the caller's server in a popup or window.
  const inner = `env -u TMUX tmux -S ${shellQuote(f.serverPath)} attach-session -t ${shellQuote(target)}`;
  const popups = f.version[0] > 3 || (f.version[0] === 3 && f.version[1] >= 2);
  if (popups) return { way: "popup", args: ["-S", callerPath, "display-popup", "-E", "-w", "90%", "-h", "90%", inner], keepCallerTmux: true };
  // new-window expands -n as a format: the name stays a name.
  return { way: "window", args: ["-S", callerPath, "new-window", "-n", tmuxWord(formatLiteral(f.session)), inner], keepCallerTmux: true };
}

/** The commands a person can use instead, named in the refusals (the verb knows its own words). */
export interface AttachWords {
  /** Prints the screen without attaching, e.g. `spex session read 3f2a9c1e`. */
  read?: string;
  /** The attach itself, retyped outside tmux. */
  attach?: string;
}

/**
 * Attach this terminal to a tmux session by the plan above; the exit code of
 * the tmux call. Where tmux could only fail (no terminal to attach; inside tmux
 * with no client to show it in) the refusal is spex's, with a code and what to
 * do, instead of tmux's bare words.
 */
export function attachTerminal(socket: string, session: string, words: AttachWords = {}): { way: AttachWay; code: number } {
  const where = tmuxSync(socket, ["display-message", "-p", "-t", `${exactSession(session)}:`, "#{socket_path}"]);
  if (where.code !== 0) return { way: "attach", code: where.code };
  const plan = attachPlan({
    socket,
    session,
    serverPath: where.stdout.trim(),
    callerTmux: process.env.TMUX || undefined,
    version: parseTmuxVersion(tmuxSync("", ["-V"]).stdout),
    assumeUtf8: localeSaysNothing(process.env),
  });
  const env = { ...process.env };
  if (!plan.keepCallerTmux) {
    delete env.TMUX;
    delete env.TMUX_PANE;
    // A tmux client draws on the terminal its input is; without one it can only say "not a terminal".
    if (!process.stdin.isTTY) {
      throw new SpexError("not_a_terminal", "attach needs a terminal, and its input is not one", {
        hint: words.read ? `run it in a terminal, or print its screen here with \`${words.read}\`` : "run it in a terminal",
      });
    }
    // tmux cannot draw on a terminal without cursor addressing: with TERM=dumb (an editor's shell, some
    // consoles) or no TERM it says only "open terminal failed: terminal does not support clear".
    const term = process.env.TERM ?? "";
    if (term === "" || term === "dumb") {
      const retry = words.attach ? `\`TERM=xterm-256color ${words.attach}\`` : "TERM=xterm-256color";
      const read = words.read ? `; or print its screen here with \`${words.read}\`` : "";
      throw new SpexError("not_a_terminal", `attach needs a terminal tmux can draw on, and TERM=${term || "(unset)"} names none`, {
        hint: `run it in a full terminal; only a real terminal that lost its TERM (under su or sudo) draws once named: ${retry}${read}`,
      });
    }
    const r = spawnSync("tmux", plan.args, { stdio: "inherit", env });
    return { way: plan.way, code: r.status ?? 1 };
  }
  // Inside tmux the call acts on the caller's client; its complaint is read, not passed through.
  const r = spawnSync("tmux", plan.args, { stdio: ["inherit", "inherit", "pipe"], env, encoding: "utf8" });
  const code = r.status ?? 1;
  if (code === 0) return { way: plan.way, code };
  const said = (r.stderr ?? "").trim().replace(/\s*\n\s*/g, "; ");
  if (/no current client|can't find client|no client/i.test(said)) {
    throw new SpexError("tmux_no_client", `no tmux client is attached to the tmux session you are in (TMUX names ${callerServerPath(process.env.TMUX ?? "")}), so there is nowhere to show ${session}`, {
      hint: words.attach ? `attach to your tmux session first, or run it outside tmux: \`env -u TMUX ${words.attach}\`` : "attach to your tmux session first, or run it outside tmux (env -u TMUX)",
      details: { tmux: said },
    });
  }
  throw new SpexError("tmux_failed", `tmux could not ${plan.way === "switch" ? "switch your client to" : "open"} ${session}: ${said || `exit ${code}`}`, {
    hint: "check that tmux works here (`spex doctor`)",
    details: { tmux: said },
  });
}
