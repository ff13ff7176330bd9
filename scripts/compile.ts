// How every standalone binary is compiled (bin/spex by `make`, each target's
// by `make release` through scripts/release.ts):
//
//   bun scripts/compile.ts <outfile> '<stamp JSON>' [<target> [<bun runtime for that target>]]
//
// - cmd/main.ts, plus dist/mcp-sdk.mjs and dist/board.mjs as entry points of
//   their own (lib/mcp/sdk-load.ts and lib/board/load.ts find them at
//   /$bunfs/root/dist/mcp-sdk.js and …/board.js);
// - ESM split into chunks, bytecode, minified syntax and whitespace: a start
//   loads and runs only the chunks of what it uses (bench/README.md "Where
//   the start goes"); identifiers keep their names, so stack traces name our functions;
// - no .env or bunfig.toml read from the folder the binary runs in;
// - clipanion's Cli.defaultContext made inert (below).
import type { BunPlugin } from "bun";
import { join } from "node:path";
import { JIT_POLICY_AT_START } from "./jit-policy";

const ROOT = join(import.meta.dir, "..");

/**
 * clipanion builds `Cli.defaultContext` when it is imported: it reads
 * process.stdin, process.stdout and process.stderr and asks node:tty for the
 * colour depth. In a Bun binary that sets up the runtime's stream and tty
 * machinery, ~25 ms of CPU on every start, before any verb runs. spex always
 * hands clipanion a context of its own (cmd/run-verb.ts) and never lets it
 * colour or capture output, so in the binary that object holds nothing and
 * clipanion's platform module (tty) is never loaded. The build fails if
 * clipanion's source no longer has the lines this replaces.
 */
export const inertClipanionContext: BunPlugin = {
  name: "inert clipanion default context",
  setup(build) {
    build.onLoad({ filter: /[\\/]clipanion[\\/]lib[\\/]advanced[\\/]Cli\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const edits: [RegExp, string][] = [
        [/var platform = require\('\.\.\/platform'\);/, "var platform = { getCaptureActivator: () => null, getDefaultColorDepth: () => 1 };"],
        [/Cli\.defaultContext = \{[^}]*colorDepth: platform\.getDefaultColorDepth\(\),\s*\};/, "Cli.defaultContext = { env: process.env, stdin: undefined, stdout: undefined, stderr: undefined, colorDepth: 1 };"],
      ];
      let contents = source;
      for (const [pattern, replacement] of edits) {
        if (!pattern.test(contents)) throw new Error(`${path} no longer matches ${pattern}: check scripts/compile.ts against this clipanion`);
        contents = contents.replace(pattern, replacement);
      }
      return { contents, loader: "js" };
    });
  },
};

export async function compile(outfile: string, stamp: string, target?: string, executablePath?: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: [join(ROOT, "cmd/main.ts"), join(ROOT, "dist/mcp-sdk.mjs"), join(ROOT, "dist/board.mjs")],
    compile: {
      outfile,
      ...(target ? { target: `bun-${target}` as Bun.Build.CompileTarget } : {}),
      ...(executablePath ? { executablePath } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      // Most runs are over in a tenth of a second: JIT-compiling their run-once code costs more than it
      // saves (ls --json at 200 sessions: 25 % less CPU held back). cmd/main.ts lets a longer run have the JIT.
      jitPolicy: JIT_POLICY_AT_START,
    },
    target: "bun",
    format: "esm",
    splitting: true,
    bytecode: true,
    minify: { syntax: true, whitespace: true, identifiers: false },
    define: { __SPEX_BUILD__: stamp },
    plugins: [inertClipanionContext],
  });
  if (!result.success) throw new AggregateError(result.logs, `compiling ${outfile} failed`);
}

if (import.meta.main) {
  const [outfile, stamp, target, executablePath] = process.argv.slice(2);
  if (!outfile || !stamp) {
    process.stderr.write("usage: bun scripts/compile.ts <outfile> '<stamp JSON>' [<target> [<bun runtime>]]\n");
    process.exit(2);
  }
  await compile(outfile, stamp, target, executablePath);
}
