// How spex finds itself from tmux and hooks (SPEX_BIN), and where the
// installed hook scripts live. Inside a compiled binary process.argv[1] is a
// virtual path, so the executable itself is the command.
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ASSETS } from "../generated/assets";
import { spexHome } from "../store";

function isCompiled(): boolean {
  const script = process.argv[1] ?? "";
  return script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/") || script === "";
}

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
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/** One executable path that runs this very spex (a wrapper when running under node/bun from source). */
export function selfBin(home = spexHome()): string {
  if (process.env.SPEX_SELF_BIN) return process.env.SPEX_SELF_BIN;
  if (isCompiled()) return process.execPath;
  const script = process.argv[1]!;
  const text = `#!/bin/sh\nexec '${process.execPath.replace(/'/g, "'\\''")}' '${script.replace(/'/g, "'\\''")}' "$@"\n`;
  mkdirSync(join(home, "bin"), { recursive: true });
  return installOnce(join(home, "bin", `spex-${digest(text)}`), text, 0o755);
}

/** The installed agent hook script (a versioned copy of hooks/agent-hook.sh). */
export function agentHookScript(home = spexHome()): string {
  const text = ASSETS["hooks/agent-hook.sh"]!;
  mkdirSync(join(home, "hooks"), { recursive: true });
  return installOnce(join(home, "hooks", `spex-agent-hook-${digest(text)}.sh`), text, 0o755);
}
