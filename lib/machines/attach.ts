// `spex session attach NAME:SEL`: `ssh -t` into the remote attach. Inside tmux
// here the ssh client runs in a popup of the caller's server (a new window
// before tmux 3.2), so no terminal ever shows one tmux client inside another.
import { spawnSync } from "node:child_process";
import { parseTmuxVersion } from "../tmux/attach";
import { shellQuote } from "../tmux/quote";
import type { Machine } from "./list";
import { remoteSpexCommand } from "./remote";
import { runSsh, sshInvocation } from "./ssh";

export async function attachOver(machine: Machine, argv: string[]): Promise<number> {
  const command = remoteSpexCommand(argv);
  const callerTmux = process.env.TMUX;
  if (!callerTmux) return (await runSsh(machine, command, { tty: true })).code;
  const { file, args } = sshInvocation(machine, command, { tty: true });
  const inner = [file, ...args].map(shellQuote).join(" ");
  const version = parseTmuxVersion(spawnSync("tmux", ["-V"], { encoding: "utf8" }).stdout ?? "");
  const popups = version[0] > 3 || (version[0] === 3 && version[1] >= 2);
  const tmuxArgs = popups ? ["display-popup", "-E", "-w", "90%", "-h", "90%", inner] : ["new-window", "-n", machine.name, inner];
  return spawnSync("tmux", tmuxArgs, { stdio: "inherit" }).status ?? 1;
}
