import { Command } from "clipanion";

/**
 * Runs the session's setup in its own pane before the agent starts; the
 * launch script calls it (SPEX_SESSION_ID names the session) and starts the
 * agent only when it exits 0. Hidden like every launch-facing command.
 */
export class InternalSetupCommand extends Command {
  static paths = [["internal", "setup"]];

  async execute(): Promise<number> {
    const { currentProject, sessionIdFromEnv } = await import("../../lib/store");
    const { runSessionSetup } = await import("../../lib/workspace/setup");
    const id = sessionIdFromEnv();
    if (!id) {
      this.context.stderr.write("spex: internal setup runs from a session's launch script (SPEX_SESSION_ID is not set)\n");
      return 2;
    }
    const run = await runSessionSetup(currentProject(), id, this.context.stdout);
    return run.ok ? 0 : 1;
  }
}
