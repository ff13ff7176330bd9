// Running this very spex again, detached: hooks, drains and after-turn work
// hand their slow part to it. Apart from lib/launch/self (the installed hook
// scripts and the binary's assets) so that a hook which spawns nothing loads
// neither those nor node:child_process.
import { childProcess } from "../proc/child-process";

/**
 * The argv that re-runs this very spex, or undefined when this process is not
 * spex (a unit test importing lib code must not spawn itself).
 */
export function selfCommand(): string[] | undefined {
  if (process.env.SPEX_SELF_BIN) return [process.env.SPEX_SELF_BIN];
  const script = process.argv[1] ?? "";
  if (script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/")) return [process.execPath];
  if (/spex[^/]*\.c?js$/.test(script) || /cmd\/main\.ts$/.test(script)) return [process.execPath, script];
  if (process.env.SPEX_BIN) return [process.env.SPEX_BIN];
  return undefined;
}

/** Start `spex <args>` detached in its own session (out of reach of a pane's hangup); false when spex cannot be found. */
export function spawnSelfDetached(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const cmd = selfCommand();
  if (!cmd) return Promise.resolve(false);
  const child = childProcess().spawn(cmd[0]!, [...cmd.slice(1), ...args], { detached: true, stdio: "ignore", env });
  return new Promise((resolve) => {
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
    child.once("error", () => resolve(false));
  });
}
