// The command manifest (lib/generated/commands.ts, made by
// scripts/gen-commands.ts from cmd/registry.ts at build time): what every
// command accepts and how its help lists it, plus a loader that imports its
// module. Help, bare namespaces, "did you mean" and completion read only the
// manifest; a verb that runs imports only the module(s) its argv names, so no
// start pays for evaluating every command and its libraries.
import type { CommandClass } from "clipanion";
import type { CommandShape } from "./shape";

export interface CommandEntry extends CommandShape {
  /** The one-line usage the overview prints (`spex session ls [--json] … [selector...]`). */
  usage: string;
  /** Imports the command's module and answers its class. */
  load(): Promise<CommandClass<any>>;
}

/** The entries whose path the argv starts with (a path word never starts with `-`, so argv itself is compared). */
export function entriesFor(entries: readonly CommandEntry[], args: string[]): CommandEntry[] {
  return entries.filter((e) => e.paths.some((p) => p.length > 0 && p.every((w, i) => args[i] === w)));
}
