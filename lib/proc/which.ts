// Finding a program on PATH without spawning a shell. A module of its own so
// a verb that only asks "is tmux there?" (send, close) does not load the
// launchers and every harness adapter with it.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolve a program name the way the shell would, without spawning one. */
export function whichSync(program: string, path = process.env.PATH ?? ""): string | undefined {
  if (program.includes("/")) return isExecutableFile(program) ? program : undefined;
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
