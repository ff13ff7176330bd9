// The argv as spex reads it before anything is loaded: the name it was called
// by, and the help words. Imports nothing, so the entry point can use it on
// its fastest paths.

/** Rewrite argv by the name we were called as: `sessions X` is `spex session X`, `post-checkout` is the git hook. */
export function dispatchArgv(argv0: string, args: string[]): string[] {
  const name = argv0.slice(argv0.lastIndexOf("/") + 1);
  if (name === "sessions") return ["session", ...args];
  if (name === "post-checkout") return ["internal", "post-checkout", ...args];
  return args;
}

export const isHelpFlag = (a: string): boolean => a === "--help" || a === "-h";

/** `spex help`, `spex help session`, `spex help session new`: the same pages as `--help` (help pages have no options of their own). */
export function helpArgs(words: string[]): string[] {
  const kept = words.filter((a) => !a.startsWith("-"));
  return kept.length === 0 ? ["--help"] : [...kept, "--help"];
}
