// Workspaces ready to work (issue 26): setup and teardown scripts, the ignored
// files copied into a new worktree, a block of ports per running session, and
// the sandbox. Settled before the agent starts; configured in the main
// checkout's spexcode.json only (docs/workspace.md).
export { type WorkspaceConfig, type SandboxMode, type Steps, workspaceConfig } from "./config";
export { type SetupState, readSetupState, setupPaths, setupRunning, setupFinishedAt, setupNeverPassed } from "./setup-state";
export { type WorkspaceLaunch, workspaceLaunch } from "./launch";
export { setupFailedError } from "./setup";
