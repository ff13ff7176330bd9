// What the entry point answers from the command manifest alone, loading no
// command: the overview (`spex help`, `spex --help`, bare `spex`), a bare
// namespace's verbs (`spex session`, `sessions --help`), and an unknown
// verb's "did you mean". Pure: the caller prints the answer.
import type { CommandEntry } from "../lib/cli/manifest";
import { describeError } from "../lib/cli/output";
import { renderOverview } from "../lib/cli/overview";
import { isNamespace, renderNamespace } from "../lib/cli/namespaces";
import { diagnoseArgs, leadingWords } from "../lib/cli/diagnose";
import { entriesFor } from "../lib/cli/manifest";
import { VERSION } from "../lib/version";
import { helpArgs, isHelpFlag } from "./argv";

export interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** `spex help …` is `… --help`; every other argv is itself. */
export function normalizeArgs(args: string[]): string[] {
  return args[0] === "help" ? helpArgs(args.slice(1)) : args;
}

/** A bare namespace (`spex session`, `sessions --help`): its verb list, or undefined when the argv is not one. */
export function namespaceListing(args: string[], entries: readonly CommandEntry[]): string | undefined {
  const words = args.filter((a) => !isHelpFlag(a));
  if (words.length !== leadingWords(args).length || !isNamespace([...entries], words)) return undefined;
  return renderNamespace([...entries], words);
}

/** The answer when no command has to be loaded for it; undefined when the argv names a verb (or might: options before the verb). */
export function manifestAnswer(args: string[], entries: readonly CommandEntry[]): Answer | undefined {
  if (args.every(isHelpFlag)) return { code: 0, stdout: renderOverview(entries, VERSION), stderr: "" };
  if (entriesFor(entries, args).length > 0) return undefined;
  const listing = namespaceListing(args, entries);
  if (listing !== undefined) return { code: 0, stdout: listing, stderr: "" };
  // Options before the verb (`spex --json session ls`) are rare: the caller loads every command and clipanion sorts it out.
  if (args[0]!.startsWith("-")) return undefined;
  const refusal = diagnoseArgs([...entries], args);
  if (!refusal) return undefined;
  const { line, json } = describeError(refusal);
  return { code: refusal.exitCode, stdout: args.includes("--json") ? `${JSON.stringify(json, null, 2)}\n` : "", stderr: `${line}\n` };
}
