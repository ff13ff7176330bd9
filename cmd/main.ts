// The executable's entry: both the compiled binary and the Node bundle start here.
import { Cli } from "clipanion";
import { dispatchArgv, runCli } from "./spex";
import { reportError } from "../lib/cli/output";

const argv0 = process.env.SPEX_ARGV0 || process.argv0 || "spex";
const args = dispatchArgv(argv0, process.argv.slice(2));
runCli(args, Cli.defaultContext).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.exitCode = reportError(error, Cli.defaultContext, args.includes("--json"));
  },
);
