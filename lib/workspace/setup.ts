// The setup of a session, run by its launch script in the session's own pane
// before the agent starts (`spex internal setup`): what it runs is printed
// there and kept in setup.log; the agent starts only when it succeeded. A
// failure leaves `setup: "failed"` on the record (shown `setup_failed`) and
// the details in setup.json; `resume` runs it again.
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { SpexError } from "../errors";
import { writeStoreFile } from "../nofollow";
import { selfIdentity } from "../proc";
import { readSession, refuseUnusable, updateRecord } from "../record";
import type { ProjectStore } from "../store";
import { workspaceConfig } from "./config";
import { type SetupState, readSetupState, setupPaths, writeSetupState } from "./setup-state";
import { runSteps } from "./steps";

/** Open the log for appending: made (emptied) through the no-follow writer first, then never opened through a link. */
function openLog(file: string): number {
  writeStoreFile(file, "");
  return openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
}

export interface SetupRun {
  ok: boolean;
  state: SetupState;
}

/** Run the session's setup here (its pane); `out` is the pane. */
export async function runSessionSetup(store: ProjectStore, id: string, out: NodeJS.WritableStream): Promise<SetupRun> {
  const reading = readSession(store, id);
  refuseUnusable(reading);
  const worktree = reading.record.worktree_path;
  const config = workspaceConfig(store.root);
  const paths = setupPaths(store, id);
  const before = readSetupState(store, id);
  const fd = openLog(paths.log);
  const write = (chunk: string | Buffer) => {
    out.write(chunk);
    writeSync(fd, typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  };
  const started: SetupState = { state: "running", runner: selfIdentity(), startedAt: new Date().toISOString(), log: paths.log, ...(before?.passedAt ? { passedAt: before.passedAt } : {}) };
  writeSetupState(store, id, started);
  // An interrupt in the pane (Ctrl-C), a hangup (the pane closed) or a stop ends the step that runs (runSteps).
  let outcome;
  try {
    write(`spex: setting up the worktree before the agent starts (setup of spexcode.json; log ${paths.log})\n`);
    outcome = await runSteps(config.setup, { mainRoot: store.root, cwd: worktree, env: process.env, timeoutMs: config.setupTimeoutSec * 1000, write });
    write(outcome.ok ? "spex: setup done\n" : `spex: setup failed (${outcome.reason}${outcome.failed ? `: ${outcome.failed}` : ""}); the agent was not started. Log: ${paths.log}\n`);
  } finally {
    closeSync(fd);
  }
  const now = new Date().toISOString();
  const state: SetupState = outcome.ok
    ? { ...started, state: "ok", finishedAt: now, exit: 0, passedAt: started.passedAt ?? now }
    : { ...started, state: "failed", finishedAt: now, exit: outcome.exit, reason: outcome.reason, failed: outcome.failed };
  writeSetupState(store, id, state);
  await markSetup(store, id, outcome.ok ? "" : "failed");
  return { ok: outcome.ok, state };
}

/** Set or clear the record's `setup` mark (written only when it changes). */
export async function markSetup(store: ProjectStore, id: string, value: "" | "failed"): Promise<void> {
  await updateRecord(store, id, (r) => ((r.setup ?? "") === value ? undefined : { ...r, setup: value }), { reason: "setup", purpose: `setup ${id}` });
}

/** The error a launch reports when the session's setup failed: the session stays, resume runs setup again. */
export function setupFailedError(store: ProjectStore, id: string, lastScreen: string): SpexError {
  const s = readSetupState(store, id);
  const id8 = id.slice(0, 8);
  const why = s?.reason ? `${s.reason}${s.failed ? `: ${s.failed}` : ""}` : "see its log";
  return new SpexError("setup_failed", `the setup of session ${id8} failed (${why}); the agent was not started. Log: ${s?.log ?? setupPaths(store, id).log}`, {
    hint: `fix the setup (spexcode.json "setup" in the main checkout) or what it needs, then \`spex session resume ${id8}\` runs it again; \`spex session close ${id8}\` drops the session`,
    details: { session_id: id, exit: s?.exit ?? null, reason: s?.reason ?? "", log: s?.log ?? setupPaths(store, id).log, lastScreen, rolledBack: false },
  });
}
