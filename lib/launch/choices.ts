// Backend choices every process of a machine must share: a lock guard only
// excludes contenders that use the same guard, and a start identity recorded
// in the form one backend writes is best read by that backend. A launch hands
// them to everything the agent starts (hooks, `spex` run from the pane).
const SHARED = ["SPEX_PROC", "SPEX_LOCK_GUARD"] as const;

export function machineChoices(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SHARED) {
    const value = env[name];
    if (value) out[name] = value;
  }
  return out;
}
