// Bundle the board's screen (lib/board/ui: Ink, React, yoga-layout) into
// dist/board.mjs, a module of its own loaded only by `spex board`
// (lib/board/load.ts): in the commands' bundle its ~1.5 MB would be parsed at
// every verb's startup. yoga-layout starts with a top-level await (its
// WebAssembly, inlined as base64, is instantiated on load), which a binary
// compiled to bytecode cannot carry: the bundle takes lib/board/ui/yoga-deferred.ts
// in its place, filled in before the first frame.
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
    {
      // Ink's reconciler has two top-level awaits, both only when DEV=true (React
      // devtools, its package.json for them); the board never runs with DEV set
      // (lib/board/load.ts clears it), and a top-level await cannot be compiled to bytecode.
      name: "ink-without-dev-awaits",
      setup(build) {
        build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
          const source = await Bun.file(args.path).text();
          const edits: [string, string][] = [
            ["await import('./devtools.js');", "void 0;"],
            ["? await loadPackageJson()", "? { name: undefined, version: undefined }"],
          ];
          let contents = source;
          for (const [from, to] of edits) {
            if (!contents.includes(from)) throw new Error(`ink's reconciler changed: '${from}' not found (scripts/build-board.ts)`);
            contents = contents.replace(from, to);
          }
          return { contents, loader: "js" };
        });
      },
    },
    {
      // Ink composes each frame into an Output; the board's (lib/board/ui/frame-output.ts)
      // gives the same text, composing only the lines that changed since the last frames.
      name: "frame-output",
      setup(build) {
        build.onResolve({ filter: /^\.\/output\.js$/ }, (args) =>
          /[\\/]ink[\\/]build[\\/]renderer\.js$/.test(args.importer) ? { path: join(root, "lib", "board", "ui", "frame-output.ts") } : undefined,
        );
      },
    },
    {
      // Ink's truncation (cli-truncate) can leave a line one cell too wide when a wide
      // character straddles the cut; lib/board/ui/truncate.ts cuts it to fit.
      name: "truncate-to-cells",
      setup(build) {
        build.onResolve({ filter: /^cli-truncate$/ }, (args) =>
          /[\\/]ink[\\/]build[\\/]wrap-text\.js$/.test(args.importer) ? { path: join(root, "lib", "board", "ui", "truncate.ts") } : undefined,
        );
      },
    },
    {
      name: "deferred-yoga",
      setup(build) {
        const deferred = join(root, "lib", "board", "ui", "yoga-deferred.ts");
        build.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: deferred }));
        build.onResolve({ filter: /^\.\/layout$/ }, (args) => (args.importer.startsWith(join(root, "lib", "board", "ui")) ? { path: deferred } : undefined));
      },
    },
  ],
});
if (!result.success) throw new Error(result.logs.map((l) => String(l)).join("\n"));
if (result.outputs.length !== 1) throw new Error(`expected one bundle, got ${result.outputs.length}`);
await Bun.write(out, result.outputs[0]!);
console.log(`board: ${(result.outputs[0]!.size / 1024).toFixed(0)} KiB`);
