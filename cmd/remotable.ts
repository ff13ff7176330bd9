// The session verbs that can run on another machine: `--machine NAME`,
// `--repo PATH` and `NAME:SEL` selectors, handled here once for every verb.
// The entry point asks `routeRemotable` before running a verb; a verb's own
// execute() never sees another machine.
import { type CommandClass, Option } from "clipanion";
import type { Readable, Writable } from "node:stream";
import { SpexCommand } from "./base";
import { shapeOf } from "../lib/cli/shape";
import { SpexError } from "../lib/errors";
import { resolveMainRoot } from "../lib/git/main-root";
import { machineName } from "../lib/live/machine";
import { type RemoteSpec, machineClassifier, planForward, readMachines, relayRemote, withCaller } from "../lib/machines";
import { matchSelector, readAll } from "../lib/sessions";
import { currentProject, sessionIdFromEnv } from "../lib/store";

export abstract class RemotableCommand extends SpexCommand {
  /** How this verb travels to another machine (its selector field, files read here, the caller option). */
  static remote: RemoteSpec = {};

  machine = Option.String("--machine", { description: "Run it on this machine (see `spex machine ls`); a selector written NAME:SEL does the same" });
  repo = Option.String("--repo", { description: "The repository to act in; with --machine a path on that machine (default: the machine's own, from `spex machine add --repo`)" });
}

function selectorValues(command: RemotableCommand, spec: RemoteSpec): string[] {
  const field = spec.selectors ? (command as unknown as Record<string, unknown>)[spec.selectors] : undefined;
  return Array.isArray(field) ? field.map(String) : typeof field === "string" ? [field] : [];
}

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
  // The common case reads nothing: no --machine, no --repo, no selector with a colon.
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
