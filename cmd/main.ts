// The executable's entry: both the compiled binary and the Node bundle start
// here. It loads only what the argv needs (bench/README.md "Where the start
// goes" has the figures): `--version` answers from lib/version alone; help,
// a bare namespace, an unknown verb and shell completion answer from the
// command manifest, printed with console.log (the runtime's own writer,
// which costs nothing to set up; a closed pipe ends it quietly); a verb loads
// cmd/run-verb.ts, which imports only that verb's command module.
import { dispatchArgv, isHelpFlag } from "./argv";
import { BUILD_COMMIT, BUILD_DATE, BUILD_TARGET, VERSION, versionLine } from "../lib/version";
import { overviewHead } from "../lib/cli/overview";

// Node ≥ 22.1 can keep compiled code between runs (for the modules loaded from here on, e.g. the MCP SDK); older Node has no such call.
if (typeof Bun === "undefined") (require("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** console.log adds the line break the text already ends with. */
const print = (text: string) => {
  if (text !== "") console.log(text.endsWith("\n") ? text.slice(0, -1) : text);
};
/** stderr without colour (Bun's console.error paints it red when FORCE_COLOR is set); a closed stderr is ignored. */
const printError = async (text: string) => {
  if (text === "") return;
  const { writeSync } = await import("node:fs");
  const line = text.endsWith("\n") ? text : `${text}\n`;
  try {
    writeSync(2, line);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPIPE") process.stderr.write(line);
  }
};

/** `spex --version`, `spex -v`, `spex version`, each with an optional `--json`. */
function isVersion(args: string[]): boolean {
  return args.length > 0 && ["--version", "-v", "version"].includes(args[0]!) && args.slice(1).every((a) => a === "--json");
}

/** `spex`, `spex --help`, `spex help` (help words only): the overview, as cmd/front.ts answers it. */
function isOverview(args: string[]): boolean {
  return args[0] === "help" ? args.slice(1).every((a) => a.startsWith("-")) : args.every(isHelpFlag);
}

async function main(args: string[]): Promise<number> {
  if (isVersion(args)) {
    if (args.includes("--json")) print(JSON.stringify({ version: VERSION, commit: BUILD_COMMIT, built: BUILD_DATE, target: BUILD_TARGET }, null, 2));
    else print(versionLine());
    return 0;
  }
  if (isOverview(args)) {
    // Made at build time from the manifest: the one string, without the manifest itself.
    const { OVERVIEW_BODY } = await import(/* webpackMode: "eager" */ "../lib/generated/overview");
    print(overviewHead(VERSION) + OVERVIEW_BODY);
    return 0;
  }
  if (args[0] === "internal" && args[1] === "complete") {
    // Completion's own table (lib/generated/completion.ts), not the manifest: each Tab is a process start.
    const { completeArgv } = await import(/* webpackMode: "eager" */ "../lib/cli/complete-sources");
    const words = await completeArgv(args.slice(2));
    if (words.length > 0) print(words.join("\n"));
    return 0;
  }
  const { COMMANDS } = await import(/* webpackMode: "eager" */ "../lib/generated/commands");
  const { manifestAnswer, normalizeArgs } = await import(/* webpackMode: "eager" */ "./front");
  args = normalizeArgs(args);
  const answer = manifestAnswer(args, COMMANDS);
  if (answer) {
    print(answer.stdout);
    await printError(answer.stderr);
    return answer.code;
  }
  const { runVerb, processContext } = await import(/* webpackMode: "eager" */ "./run-verb");
  return runVerb(args, processContext(), COMMANDS);
}

const args = dispatchArgv(process.env.SPEX_ARGV0 || process.argv0 || "spex", process.argv.slice(2));
main(args).then(
  (code) => {
    process.exitCode = code;
  },
  async (error) => {
    const { describeError } = await import(/* webpackMode: "eager" */ "../lib/cli/output");
    const described = describeError(error);
    await printError(described.line);
    if (process.env.SPEX_DEBUG && error instanceof Error && error.stack) await printError(error.stack);
    if (args.includes("--json")) print(JSON.stringify(described.json, null, 2));
    process.exitCode = described.error.exitCode;
  },
);
