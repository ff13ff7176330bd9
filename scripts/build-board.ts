// Bundle the board's screen (lib/board/ui: Ink, React, yoga-layout) into
// dist/board.mjs, a module of its own loaded only by `spex board`
// (lib/board/load.ts): in the commands' bundle its ~1.5 MB would be parsed at
// every verb's startup. ESM because yoga-layout starts with a top-level await
// (its WebAssembly, inlined as base64, is instantiated on load).
import { join, resolve } from "node:path";

const root = resolve(__dirname, "..");
const out = join(root, "dist", "board.mjs");

const result = await Bun.build({
  entrypoints: [join(root, "lib", "board", "ui", "main.tsx")],
  target: "node",
  format: "esm",
  // React picks its development build (slower, chattier) unless told otherwise.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  minify: { whitespace: true, syntax: true, identifiers: false },
  plugins: [
    {
      // Ink imports react-devtools-core only when DEV=true (lib/board/load.ts clears it
      // for the import); the package is not a dependency, so it resolves to a stub.
      name: "no-devtools",
      setup(build) {
        build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: join(root, "lib", "board", "ui", "no-devtools.ts") }));
      },
    },
  ],
});
if (!result.success) throw new Error(result.logs.map((l) => String(l)).join("\n"));
if (result.outputs.length !== 1) throw new Error(`expected one bundle, got ${result.outputs.length}`);
await Bun.write(out, result.outputs[0]!);
console.log(`board: ${(result.outputs[0]!.size / 1024).toFixed(0)} KiB`);
