// The Node bundle's entry, dist/spex.cjs. Node compiles a whole file before
// running a line of it, and the program is 1.4 MB (about half of a `--version`
// run went to reading and compiling it): this small file answers `--version`
// and the overview itself and loads the program, dist/spex-main.cjs beside
// it, only for everything else.
import { dispatchArgv } from "./argv";
import { fastAnswer, print } from "./fast";

const answer = fastAnswer(dispatchArgv(process.env.SPEX_ARGV0 || process.argv0 || "spex", process.argv.slice(2)));
if (answer !== undefined) print(answer);
else {
  // Node ≥ 22.1 keeps compiled code between runs (the program and what it loads later, e.g. the MCP SDK);
  // older Node has no such call. The one place it is turned on: the program is only ever loaded from here.
  (require("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // The path is a runtime value, so the bundler leaves the program out of this file; it also rewrites
  // __dirname to the source's folder, while require.main is this very file (realpath'd by Node).
  const path = require("node:path") as typeof import("node:path");
  require(path.join(path.dirname(require.main?.filename ?? process.argv[1]!), "spex-main.cjs"));
}
