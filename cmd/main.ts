// The executable's entry: the compiled binary starts here, and the Node
// bundle's program (dist/spex-main.cjs, loaded by cmd/node-start.ts). It loads
// only what the argv needs (bench/README.md "Where the start goes" has the
// figures): `--version` and the overview answer from cmd/fast.ts; a command's
// help, a bare namespace, an unknown verb and shell completion answer from the
// command manifest; a verb loads cmd/run-verb.ts, which imports only that
// verb's command module.
import { dispatchArgv } from "./argv";
import { fastAnswer, print } from "./fast";

/** How long a run keeps the JIT held back (bench/README.md "Compiled for a short run"). */
const JIT_HELD_MS = 100;

// The binary starts with JavaScriptCore's JIT held back (scripts/compile.ts): most runs end
// within a tenth of a second, before compiled code pays back its compiling. A process still
// running then (the board, serve, mcp, wait, live --watch) gets the normal JIT back.
if (typeof Bun !== "undefined") setTimeout(() => Bun.unsafe.setJITPolicy(1), JIT_HELD_MS).unref();

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

async function main(args: string[]): Promise<number> {
  const fast = fastAnswer(args);
  if (fast !== undefined) {
    print(fast);
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
// `session live`: tmux lists and captures every pane while the modules live runs on load
// (lib/live/early.ts). The calls start before the verb runs, so it finds them.
const earlyLive =
  typeof Bun !== "undefined" && args[0] === "session" && args[1] === "live"
    ? import(/* webpackMode: "eager" */ "../lib/live/early").then((early) => {
        if (early.plainLiveObservation(args)) early.startEarlyLive();
        return early;
      })
      // Never in the way: without it live makes its calls as it always did.
      .catch(() => undefined)
    : undefined;
(earlyLive ?? Promise.resolve(undefined))
  .then(() => main(args))
  .then(
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
  )
  // A call nobody took would keep the process waiting on tmux.
  .finally(async () => (await earlyLive)?.cancelEarlyLive());
