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

// The locale a launch hands the agent: its launcher's, not the tmux server's.
// A pane gets the environment of whichever process started the server, so a
// server first started from cron, a systemd unit or an ssh login with no
// locale (LC_ALL=C, or nothing) ran every later agent in the C locale, even
// those started from a UTF-8 terminal, and the other way round. Each variable
// the launcher lacks is exported empty, which setlocale reads as unset, so
// none of the server's stays in force.
const LOCALE = ["LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_COLLATE", "LC_NUMERIC", "LC_TIME", "LC_MONETARY"] as const;

export function launcherLocale(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of LOCALE) out[name] = env[name] ?? "";
  return out;
}
