import { SpexError } from "../errors";
import { claude } from "./claude";
import { codex } from "./codex";
import { gemini } from "./gemini";
import { shell } from "./shell";
import { checkSpawnOptions } from "./spawn";
import { type HarnessAdapter, type HarnessName, type SpawnOptions, HARNESS_NAMES, isHarnessName } from "./types";

export * from "./types";
export { HOOK_MARKER, mergeHookSettings } from "./hook-config";
export { codexEventSnake, codexHookTrust, codexHandlersOf, upsertCodexTrust, type CodexHandler, type TrustEntry } from "./codex-trust";
export { INTERACTIVE_SHELLS, type InteractiveShell, interactiveShellOf } from "./shell";
export { codexConfigFile, codexProjectTrust, recordCodexTrust } from "./codex-config";

const ADAPTERS: Record<HarnessName, HarnessAdapter> = { claude, codex, gemini, shell };


export function harnessAdapter(name: string): HarnessAdapter {
  if (!isHarnessName(name)) {
    throw new SpexError("harness_unknown", `"${name}" is not a known harness`, {
      hint: `use one of ${HARNESS_NAMES.join(", ")}`,
      httpStatus: 400,
    });
  }
  return ADAPTERS[name];
}

/** The command a built-in launcher of this harness runs on this machine. */
export function builtinCommand(adapter: HarnessAdapter, env: NodeJS.ProcessEnv, which: (program: string) => string | undefined): string {
  return adapter.defaultCommandFor ? adapter.defaultCommandFor(env, which) : adapter.defaultCommand;
}

/** The spawn options `harness` will be launched with, checked against what its CLI takes (usage otherwise). */
export function spawnOptionsFor(harness: string, options: SpawnOptions): SpawnOptions {
  return checkSpawnOptions(harnessAdapter(harness), HARNESS_NAMES.map((n) => ADAPTERS[n]), options);
}
