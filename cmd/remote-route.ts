// Where a remotable verb runs (cmd/remotable.ts): on another machine through
// ssh, or here after `--repo` and any `NAME:` of this machine are applied.
// Loaded only for a verb that may travel, so the common case loads none of
// the machine and selector code.
import type { CommandClass } from "clipanion";
import type { Readable, Writable } from "node:stream";
import { type RemotableCommand, selectorValues } from "./remotable";
import { shapeOf } from "../lib/cli/shape";
import { SpexError } from "../lib/errors";
import { resolveMainRoot } from "../lib/git/main-root";
import { machineName } from "../lib/live/machine";
import { machineClassifier, planForward, readMachines, relayRemote, withCaller } from "../lib/machines";
import { matchSelector, readAll } from "../lib/sessions";
import { currentProject, sessionIdFromEnv } from "../lib/store";

/** `--repo PATH` here: the verb acts in that repository as if run from it. */
function enterRepo(repo: string): void {
  const root = resolveMainRoot(repo);
  if (!root) {
    throw new SpexError("not_a_git_repo", `${repo} is not inside a git checkout on this machine`, { hint: "give --repo the path of a repository here (with --machine: a path on that machine)" });
  }
  process.chdir(repo);
  process.env.SPEX_PROJECT_ROOT = root;
}

/**
 * Run a remotable verb where it belongs: the exit code when it ran on another
 * machine, undefined when it is to run here (after `--repo` and any `NAME:` of
 * this machine were applied to the command).
 */
export async function routeRemotable(command: RemotableCommand, args: string[], io: { stdin: Readable; stdout: Writable; stderr: Writable }): Promise<number | undefined> {
  const spec = (command.constructor as typeof RemotableCommand).remote;
  const selectors = selectorValues(command, spec);
  if (command.machine === undefined && command.repo === undefined && !selectors.some((s) => s.includes(":"))) return undefined;
  const shape = shapeOf(command.constructor as CommandClass<any>);
  const pathLength = command.path.length;
  const here = machineName();
  let machines: ReturnType<typeof readMachines> | undefined;
  const plan = planForward({
    shape,
    path: args.slice(0, pathLength),
    rest: args.slice(pathLength),
    spec,
    machineOption: command.machine,
    repoOption: command.repo,
    classify: machineClassifier(here, () => (machines ??= readMachines())),
  });
  if (!plan.machine) {
    if (spec.selectors === "selectors") (command as unknown as Record<string, unknown>).selectors = plan.selectors;
    else if (spec.selectors === "selector" && plan.selectors.length > 0) (command as unknown as Record<string, unknown>).selector = plan.selectors[0];
    if (command.repo !== undefined) enterRepo(command.repo);
    return undefined;
  }
  const argv = withCaller(plan, spec, {
    machine: here,
    sessionId: sessionIdFromEnv(),
    resolveLocal(selector) {
      try {
        return matchSelector(readAll(currentProject()), selector).id;
      } catch {
        return undefined; // not a session here: a free-form sender name
      }
    },
  });
  return relayRemote(plan.machine, argv, { json: command.json, tty: spec.tty === true, stdinFrom: plan.stdinFrom, streams: io });
}
