// How spex finds itself from tmux and hooks (SPEX_BIN), and where the
// installed hook scripts live. Inside a compiled binary process.argv[1] is a
// virtual path, so the executable itself is the command.
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ASSETS } from "../generated/assets";
import { spexHome } from "../store";
import { sha256Hex } from "../hash";

import { selfCommand } from "./spawn-self";

/** Write a file once under a content-addressed name, atomically. */
function installOnce(path: string, text: string, mode: number): string {
  if (!existsSync(path)) {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode });
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  }
  return path;
}

function digest(text: string): string {
  return sha256Hex(text).slice(0, 12);
}

/** One executable path that runs this very spex (a wrapper when running under node/bun from source). */
export function selfBin(home = spexHome()): string {
  const cmd = selfCommand() ?? [process.execPath, process.argv[1] ?? ""];
  if (cmd.length === 1) return cmd[0]!;
  const script = cmd[1]!;
  const text = `#!/bin/sh\nexec '${process.execPath.replace(/'/g, "'\\''")}' '${script.replace(/'/g, "'\\''")}' "$@"\n`;
  mkdirSync(join(home, "bin"), { recursive: true });
  return installOnce(join(home, "bin", `spex-${digest(text)}`), text, 0o755);
}

/**
 * A folder holding `spex` (a link to `bin`), for a session's PATH when spex is
 * not installed there: `spex session done` typed in a session shell must work.
 */
export function spexPathDir(home: string, bin: string): string {
  const dir = join(home, "bin", `path-${digest(bin)}`);
  const link = join(dir, "spex");
  if (!existsSync(link)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${link}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    symlinkSync(bin, tmp);
    renameSync(tmp, link);
  }
  return dir;
}

/** Install generated hook text once under $SPEX_HOME/hooks, named by its content: a file in use never changes. */
export function installHookFile(home: string, stem: string, text: string, ext = ".sh"): string {
  mkdirSync(join(home, "hooks"), { recursive: true });
  return installOnce(join(home, "hooks", `${stem}-${digest(text)}${ext}`), text, 0o755);
}

/** The same for a folder of files (a ZDOTDIR); returns the folder. */
export function installHookFolder(home: string, stem: string, files: Record<string, string>): string {
  const dir = join(home, "hooks", `${stem}-${digest(JSON.stringify(files))}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) installOnce(join(dir, name), text, 0o644);
  return dir;
}

/** The installed agent hook script (a versioned copy of hooks/agent-hook.sh). */
export function agentHookScript(home = spexHome()): string {
  return installHookFile(home, "spex-agent-hook", ASSETS["hooks/agent-hook.sh"]!);
}
