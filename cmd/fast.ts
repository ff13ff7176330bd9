// What spex answers before loading any command: `--version` and the
// overview (`spex`, `spex --help`, `spex help`). Both entry points use it:
// cmd/main.ts, and cmd/node-start.ts, the Node bundle's small first file.
import { isHelpFlag } from "./argv";
import { BUILD_COMMIT, BUILD_DATE, BUILD_TARGET, VERSION, versionLine } from "../lib/version";
import { overviewHead } from "../lib/cli/overview";
import { OVERVIEW_BODY } from "../lib/generated/overview";

/** `spex --version`, `spex -v`, `spex version`, each with an optional `--json`. */
function isVersion(args: string[]): boolean {
  return args.length > 0 && ["--version", "-v", "version"].includes(args[0]!) && args.slice(1).every((a) => a === "--json");
}

/** `spex`, `spex --help`, `spex help` (help words only): the overview, as cmd/front.ts answers it. */
function isOverview(args: string[]): boolean {
  return args[0] === "help" ? args.slice(1).every((a) => a.startsWith("-")) : args.every(isHelpFlag);
}

/** The text to print for an argv answered without a command, or undefined. */
export function fastAnswer(args: string[]): string | undefined {
  if (isVersion(args)) {
    if (args.includes("--json")) return JSON.stringify({ version: VERSION, commit: BUILD_COMMIT, built: BUILD_DATE, target: BUILD_TARGET }, null, 2);
    return versionLine();
  }
  // The overview was made at build time from the manifest: one string, without the manifest itself.
  if (isOverview(args)) return overviewHead(VERSION) + OVERVIEW_BODY;
  return undefined;
}

/** Print through console.log (the runtime's own writer, which costs nothing to set up; a closed pipe ends it quietly), adding the line break the text lacks. */
export function print(text: string): void {
  if (text !== "") console.log(text.endsWith("\n") ? text.slice(0, -1) : text);
}
