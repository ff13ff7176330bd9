// Git output read without blocking, up to a limit: for reads whose size the
// repository's content decides (a patch of whatever an agent committed), run
// inside the backend, where a spawnSync would stall every other request and
// pane stream for as long as git runs. Past the limit git is stopped and the
// answer says so, instead of buffering all of it (or failing with ENOBUFS).
import { spawn } from "node:child_process";
import { SpexError } from "../errors";
import { gitEnv } from "./ops";
import { oneLine } from "./sync";

export interface GitRead {
  /** At most `maxBytes` (and a little more, up to one chunk) of git's stdout. */
  stdout: Buffer;
  /** Git was stopped because its output passed `maxBytes`. */
  truncated: boolean;
}

/** stdout of a git step that must succeed; `what` names the step in the error. */
export function gitRead(cwd: string, args: string[], what: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<GitRead> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: gitEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let truncated = false;
    child.stdout.on("data", (b: Buffer) => {
      if (truncated) return;
      out.push(b);
      size += b.length;
      if (size > maxBytes) {
        truncated = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.on("data", (b: Buffer) => {
      if (err.length < 64) err.push(b);
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (truncated) return resolve({ stdout: Buffer.concat(out), truncated });
      if (code === 0) return resolve({ stdout: Buffer.concat(out), truncated: false });
      const stderr = Buffer.concat(err).toString("utf8");
      reject(
        new SpexError("git_failed", `${what} failed: git ${args.join(" ")}: ${oneLine(stderr) || `exit ${code}`}`, {
          hint: "fix the repository state git reports, then run the command again",
          details: { git: args, exit: code, stderr: stderr.trim() },
        }),
      );
    });
  });
}
