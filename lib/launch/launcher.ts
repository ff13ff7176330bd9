// Launcher resolution: a named launcher → its harness and the exact command,
// refused before anything is made when its executable cannot be found.
import type { SpexConfig } from "../config";
import { SpexError } from "../errors";
import { whichSync } from "../proc/which";
import { type HarnessName, builtinCommand, harnessAdapter } from "../harness";

export interface ResolvedLauncher {
  name: string;
  harness: HarnessName;
  /** The exact command pinned on the record (launch_cmd). */
  command: string;
  /** The executable its first word resolves to. */
  executable: string;
}

/** The program a launch command runs: its first word, quoted or not. */
export function firstWord(command: string): string {
  const m = /^\s*(?:'([^']*)'|"([^"]*)"|(\S+))/.exec(command);
  return m ? (m[1] ?? m[2] ?? m[3] ?? "") : "";
}

export { whichSync };

/** The launchers of this configuration whose program resolves on this machine, in the configuration's order. */
export function launchersThatRun(config: SpexConfig): string[] {
  return Object.entries(config.launchers)
    .filter(([, l]) => {
      const command = l.command || builtinCommand(harnessAdapter(l.harness), process.env, (p) => whichSync(p));
      const word = firstWord(command);
      return word !== "" && whichSync(word) !== undefined;
    })
    .map(([name]) => name);
}

/**
 * What to do when a launcher does not run here: name the ones that do, and the
 * two ways to use one (a newcomer without Claude Code meets this first).
 */
function launcherHint(config: SpexConfig, name: string, missing: "launcher" | "program", program: string): string {
  const running = launchersThatRun(config).filter((n) => n !== name);
  const pick = running.includes("shell") ? "shell" : running[0];
  const fix = missing === "launcher" ? `define "${name}" under "launchers" in spexcode.json` : `install ${program} (or point launchers.${name}.command in spexcode.json at it)`;
  if (!pick) return `no launcher runs on this machine; ${fix}`;
  return `launchers that run here: ${running.join(", ")}; use one with \`--launcher ${pick}\`, make it the default with "defaultLauncher": "${pick}" in spexcode.json, or ${fix}`;
}

export function resolveLauncher(config: SpexConfig, requested: string | undefined): ResolvedLauncher {
  const name = requested || config.defaultLauncher;
  const which = requested ? `launcher "${name}"` : `the default launcher "${name}"`;
  const launcher = config.launchers[name];
  if (!launcher) {
    throw new SpexError("launcher_unresolvable", `no launcher named "${name}"${requested ? "" : " (the defaultLauncher of spexcode.json)"}`, {
      hint: launcherHint(config, name, "launcher", name),
      details: { launcher: name, available: launchersThatRun(config) },
      httpStatus: 400,
    });
  }
  const command = launcher.command || builtinCommand(harnessAdapter(launcher.harness), process.env, (p) => whichSync(p));
  const word = firstWord(command);
  const executable = word ? whichSync(word) : undefined;
  if (!executable) {
    throw new SpexError("launcher_unresolvable", `${which} runs "${word || command}", which is not an executable on PATH`, {
      hint: launcherHint(config, name, "program", word || command),
      details: { launcher: name, available: launchersThatRun(config) },
      httpStatus: 400,
    });
  }
  return { name, harness: launcher.harness, command, executable };
}

/** The executable a launch command's first word names; refused (launcher_unresolvable) when there is none. */
export function requireExecutable(command: string, name: string): string {
  const word = firstWord(command);
  const executable = word ? whichSync(word) : undefined;
  if (!executable) {
    throw new SpexError("launcher_unresolvable", `launcher "${name}" runs "${word || command}", which is not an executable on PATH`, {
      hint: `install it, or point launchers.${name}.command in spexcode.json at the right program`,
      httpStatus: 400,
    });
  }
  return executable;
}
