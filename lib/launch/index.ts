export { launchSession, checkLaunchable, everLaunched, waitForReadiness, tmuxNameFor, type LaunchOptions, type LaunchResult, type ReadinessWait } from "./start";
export { checkStartDirectory, startFolder } from "./placement";
export { clearFence, restoreOriginal, readAgentPid, freezeOriginal, markLauncher, launcherFile } from "./fence";
export { resolveLauncher, whichSync, type ResolvedLauncher } from "./launcher";
export { renderLaunchScript, shellQuote } from "./script";
export { renderWorktree, copyLocalConfig } from "./render";
export { selfBin, agentHookScript } from "./self";
export { recoverStaleFences, listRowsSettled } from "./stale";
export { settleFence, type FenceSettlement } from "./settle";
