// resume: relaunch a session's agent with its harness's resume marker and the
// recorded native id. The launch itself (script, tmux, readiness fence) is
// lib/launch's; this decides whether a relaunch is allowed and clears the way.
import { SpexError } from "../errors";
import { harnessAdapter } from "../harness";
import { type LaunchOptions, type LaunchResult, checkLaunchable, everLaunched, launchSession, settleFence } from "../launch";
import { publicRecord, readSession, refuseUnusable } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { probe, recordedLeaf } from "./leaf";
import { hasTmuxSession } from "./runtime";
import { type StopResult, stopSession } from "./stop";
import { typeFirstCommand } from "../comms/first-command";
import { sessionProcesses } from "./strays";
import { spentBudget } from "../attention/enforce";

export interface ResumeOptions {
  force?: boolean;
  /** Wait for readiness (default true). */
  wait?: boolean;
  /** Told when the relaunch starts waiting for the agent to be ready. */
  onWaiting?: LaunchOptions["onWaiting"];
}

export interface ResumeResult {
  id: string;
  resumeArgs: string[];
  /** The stop that cleared the way (a live leaf under --force, or a leftover tmux session). */
  stopped: StopResult | null;
  ready: boolean;
  launch: LaunchResult;
}

/**
 * A session whose budget spex has parked it for is not relaunched as it is: the
 * agent would spend more of a limit already reached. Raising the limit
 * (`resume --budget-usd N`, which clears the flag first) is the way back.
 */
export function refuseSpentBudget(store: ProjectStore, id: string): void {
  const spent = spentBudget(store, id);
  if (!spent) return;
  const id8 = id.slice(0, 8);
  const owner8 = spent.owner.slice(0, 8);
  const limit = [spent.budget.usd !== null ? `$${spent.budget.usd}` : "", spent.budget.tokens !== null ? `${spent.budget.tokens} tokens` : ""].filter(Boolean).join(" or ");
  const whose = spent.owner === id ? `its budget (${limit})` : `the tree budget of session ${owner8} (${limit}), which it counts toward,`;
  throw new SpexError("budget_exceeded", `session ${id8} is not resumed: ${whose} is spent`, {
    hint:
      spent.owner === id
        ? `raise it as you resume: \`spex session resume ${id8} --budget-usd N\` or \`--budget-tokens N\``
        : `raise that budget first: \`spex session resume ${owner8} --budget-usd N\` (or --budget-tokens N), then resume this one`,
    details: { owner: spent.owner, usd: spent.budget.usd, tokens: spent.budget.tokens },
  });
}

export async function resumeSession(store: ProjectStore, id: string, opts: ResumeOptions = {}): Promise<ResumeResult> {
  // A launch nobody waits on any more is settled first: resume then sees the agent as it is.
  await settleFence(store, id);
  const reading = readSession(store, id);
  // Corrupt and retired records are refused here: a retired one is terminal, only close remains.
  refuseUnusable(reading);
  const record = publicRecord(reading.record, reading.pending);
  refuseSpentBudget(store, id);
  const adapter = harnessAdapter(record.harness || "shell");
  // A session that never launched (--no-launch, still queued) has no conversation to resume: it starts fresh, out of turn.
  const fresh = !everLaunched(store, id);
  const resumeArgs = fresh ? [] : record.harness_session_id ? adapter.resumeArgs(record.harness_session_id, { model: record.model, effort: record.effort }) : adapter.name === "shell" ? [] : undefined;
  if (resumeArgs === undefined) {
    throw new SpexError("resume_unavailable", `session ${id.slice(0, 8)} has no recorded ${adapter.name} session id to resume`, {
      hint: "the agent never reported its native id; close the session and start a new one",
    });
  }
  const leaf = recordedLeaf(record, sessionPaths(store, id).agentPid);
  const state = probe(leaf);
  if (state !== "dead" && !opts.force) {
    const id8 = id.slice(0, 8);
    // Archiving leaves the agent running, so "resume" after "archive" usually means "bring it back".
    const restore = record.archived ? `it was archived with its agent running: \`spex session archive --restore ${id8}\` lists it again; ` : "";
    throw new SpexError("session_running", `the agent of session ${id8} (pid ${leaf.pid}) is still running`, {
      hint: `${restore}attach with \`spex session attach ${id8}\`, or resume with --force to stop it and relaunch`,
      details: { pid: leaf.pid, leaf: state, archived: record.archived },
    });
  }
  // Refusals the launch would settle come before anything is stopped: a refused resume changes nothing.
  await checkLaunchable(store, id);
  // A live leaf (only with --force; an unprovable one still refuses), a leftover pane, or a
  // process of the earlier run still going (a daemon) is stopped first.
  const leftover = state !== "dead" || hasTmuxSession(record) || sessionProcesses(store, id, record).length > 0;
  // The slot this stop frees is the one the relaunch takes: it is not handed to the queue.
  const stopped = leftover ? await stopSession(store, id, { drain: false, leftovers: state === "dead" }) : null;
  const launch = await launchSession(store, id, { resume: !fresh, wait: opts.wait, onWaiting: opts.onWaiting });
  // A shell session never launched before (--no-launch) runs its prompt as the first command now.
  await typeFirstCommand(store, id, launch);
  return { id, resumeArgs, stopped, ready: launch.ready, launch };
}
