// Running `spex …` on another machine. The argv is quoted once, for the remote
// user's POSIX shell (ssh hands the command line to it), so every argument
// arrives as the one word it was here: no remote shell re-splits or expands it.
import { SpexError } from "../errors";
import { shellQuote } from "../tmux/quote";
import type { Machine } from "./list";
import { type SshResult, type SshRunOptions, runSsh } from "./ssh";

/** Where `machine install` puts spex; PATH is the fallback (a non-interactive ssh shell rarely has ~/.local/bin on it). */
export const REMOTE_SPEX = "$HOME/.local/bin/spex";
const NOT_INSTALLED = "spex_not_installed";

/** Shell text that sets `s` to the remote spex, or fails with our marker on stderr and exit 127. */
export const FIND_REMOTE_SPEX = `s="${REMOTE_SPEX}"; [ -x "$s" ] || s=$(command -v spex 2>/dev/null) || { echo 'spex: spex is not installed on this machine [${NOT_INSTALLED}]' >&2; exit 127; }`;

/** One word for the remote shell. argv cannot carry a NUL, so neither can this (text with NULs travels on stdin). */
export function remoteWord(arg: string): string {
  if (arg.includes("\u0000")) {
    throw new SpexError("usage", "an argument holds a NUL byte, which no command line can carry", {
      hint: "pass such text with --message-file / --prompt-file, which go over stdin",
      exitCode: 2,
    });
  }
  return shellQuote(arg);
}

/** The remote command line that runs `spex <argv>` there. */
export function remoteSpexCommand(argv: string[]): string {
  return `${FIND_REMOTE_SPEX}; exec "$s" ${argv.map(remoteWord).join(" ")}`;
}

function notInstalled(machine: Machine): SpexError {
  return new SpexError(NOT_INSTALLED, `spex is not installed on machine ${machine.name}`, {
    hint: `install this binary there with \`spex machine install ${machine.name}\``,
    details: { machine: machine.name },
  });
}

/** Run `spex <argv>` on `machine`: its exit code, stdout and stderr; unreachable and not-installed are errors. */
export async function runSpexOn(machine: Machine, argv: string[], opts: SshRunOptions = {}): Promise<SshResult> {
  const result = await runSsh(machine, remoteSpexCommand(argv), opts);
  if (result.code === 127 && result.stderr.includes(`[${NOT_INSTALLED}]`)) throw notInstalled(machine);
  return result;
}

/** The remote's JSON answer; anything else (an older spex, a shell banner) is an error naming the machine. */
export function parseRemoteJson(machine: Machine, result: SshResult): unknown {
  const text = result.stdout.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    const why = result.stderr.trim() || text.trim().slice(0, 200) || `exit ${result.code} with no output`;
    throw new SpexError("machine_answer_invalid", `machine ${machine.name} did not answer with JSON: ${why.replace(/\s+/g, " ")}`, {
      hint: `compare versions with \`spex machine ls\`; \`spex machine install ${machine.name}\` puts this spex there`,
      details: { machine: machine.name },
    });
  }
}
