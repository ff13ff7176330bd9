// Handing a drain to a detached process. Hooks and an agent's own tool calls
// commit state changes; they must not wait for a paste into the very pane
// that is running them, so the handover runs in `spex session deliver`.
import { withoutFaults } from "../faults";
import { spawnSelfDetached } from "../launch/spawn-self";
import type { ProjectStore } from "../store";

/** Start a detached `spex session deliver <id>`; false when no spex executable is known. */
export function scheduleDrain(store: ProjectStore, id: string, patienceMs = 8000): Promise<boolean> {
  const env = withoutFaults({ ...process.env, SPEX_HOME: store.home, SPEX_PROJECT_ROOT: store.root });
  return spawnSelfDetached(["session", "deliver", id, "--patience", String(patienceMs), "--quiet"], env);
}
