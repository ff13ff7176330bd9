// `spex board`: refuse anything that is not a terminal before drawing a byte,
// then hand the screen module (loaded only now) the services it draws from.
import { terminalOf } from "../cli/terminal";
import { SpexError } from "../errors";
import { currentProject } from "../store";
import { loadBoardUi } from "./load";
import { boardServices } from "./services";

export interface RunBoardOptions {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** --color (default on); NO_COLOR and TERM=dumb turn it off as well. */
  color: boolean;
  /** Show archived sessions from the start (--all). */
  all: boolean;
  /** List every machine of `spex machine ls` too (--all-machines). */
  allMachines?: boolean;
}

/** The board draws a screen and reads keys: a pipe or a file on either side gets an error, and not one byte on stdout. */
export function refuseNonTerminal(stdout: { isTTY?: boolean }, stdin: { isTTY?: boolean }, env: Record<string, string | undefined>): void {
  if (!stdout.isTTY || !stdin.isTTY) {
    const which = !stdout.isTTY ? "its output is not a terminal" : "its input is not a terminal";
    throw new SpexError("board_needs_terminal", `spex board draws a screen and reads keys, but ${which}; nothing was drawn`, {
      hint: "in scripts and pipes use `spex session ls` (or `spex session ls --json`)",
    });
  }
  // A terminal without cursor addressing (TERM=dumb: an editor's shell buffer, a CI log, script(1);
  // or no TERM at all) would print every cursor move and clear as text: refuse, as attach does.
  const term = env.TERM ?? "";
  if (term === "" || term === "dumb") {
    throw new SpexError("not_a_terminal", `spex board draws a full screen, and TERM=${term || "(unset)"} names a terminal that cannot; nothing was drawn`, {
      hint: "here use `spex session ls` (or `spex session live --watch`, which prints each observation in turn); only a real terminal that lost its TERM (under su or sudo) draws the board once named: `TERM=xterm-256color spex board`",
    });
  }
}

export async function runBoard(o: RunBoardOptions): Promise<number> {
  refuseNonTerminal(o.stdout, o.stdin, o.env);
  const store = currentProject();
  const services = boardServices(store, o.env, { allMachines: o.allMachines });
  const ui = await loadBoardUi();
  const color = o.color && terminalOf(o.stdout, o.env).color;
  return ui.startBoard(services, { color, archived: o.all, stdout: o.stdout, stdin: o.stdin, stderr: o.stderr });
}
