// Handing a drain to a detached process. Hooks and an agent's own tool calls
// commit state changes; they must not wait for a paste into the very pane
// that is running them, so the handover runs in `spex session deliver`.
import { spawn } from "node:child_process";
import type { ProjectStore } from "../store";

/** argv that re-runs this spex, or undefined when we are not the spex executable (unit tests). */
export function selfCommand(): string[] | undefined {
  const script = process.argv[1] ?? "";
  // A compiled binary reports a virtual script path; the executable itself is spex.
  if (script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/")) return [process.execPath];
  if (/spex[^/]*\.c?js$/.test(script)) return [process.execPath, script];
  if (process.env.SPEX_BIN) return [process.env.SPEX_BIN];
  return undefined;
}

/** Start a detached `spex session deliver <id>`; false when no spex executable is known. */
export function scheduleDrain(store: ProjectStore, id: string, patienceMs = 8000): boolean {
  const cmd = selfCommand();
  if (!cmd) return false;
  const env: NodeJS.ProcessEnv = { ...process.env, SPEX_HOME: store.home, SPEX_PROJECT_ROOT: store.root };
  // A crash point meant for the process under test must not leak into its helpers.
  delete env.SPEX_TEST_CRASH_AT;
  try {
    const child = spawn(cmd[0]!, [...cmd.slice(1), "session", "deliver", id, "--patience", String(patienceMs), "--quiet"], {
      detached: true,
      stdio: "ignore",
      env,
      cwd: store.root,
    });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
