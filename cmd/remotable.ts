// The session verbs that can run on another machine: `--machine NAME`,
// `--repo PATH` and `NAME:SEL` selectors, handled here once for every verb.
// The entry point asks `routeRemotable` (cmd/remote-route.ts, loaded only
// when `travels` says the verb may leave this machine or this folder) before
// running a verb; a verb's own execute() never sees another machine.
import { Option } from "clipanion";
import { SpexCommand } from "./base";
import type { RemoteSpec } from "../lib/machines";

export abstract class RemotableCommand extends SpexCommand {
  /** How this verb travels to another machine (its selector field, files read here, the caller option). */
  static remote: RemoteSpec = {};

  machine = Option.String("--machine", { description: "Run it on this machine (see `spex machine ls`); a selector written NAME:SEL does the same" });
  repo = Option.String("--repo", { description: "The repository to act in; with --machine a path on that machine (default: the machine's own, from `spex machine add --repo`)" });
}

export function selectorValues(command: RemotableCommand, spec: RemoteSpec): string[] {
  const field = spec.selectors ? (command as unknown as Record<string, unknown>)[spec.selectors] : undefined;
  return Array.isArray(field) ? field.map(String) : typeof field === "string" ? [field] : [];
}

/** Whether the verb may run elsewhere: the common case (no --machine, no --repo, no selector with a colon) reads nothing and stays. */
export function travels(command: RemotableCommand): boolean {
  const spec = (command.constructor as typeof RemotableCommand).remote;
  return command.machine !== undefined || command.repo !== undefined || selectorValues(command, spec).some((s) => s.includes(":"));
}
