// node:child_process, loaded on first use. Loading it brings node:net and the
// stream machinery with it, several milliseconds of a start that most verbs
// (a listing, a hook, a Tab) never need: they spawn nothing.
import type * as ChildProcess from "node:child_process";

let loaded: typeof ChildProcess | undefined;

export function childProcess(): typeof ChildProcess {
  // A require the bundlers keep where it is: the module loads when a spawn is first asked for.
  return (loaded ??= require("node:child_process") as typeof ChildProcess);
}
