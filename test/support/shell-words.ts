// What a printed command line is to a shell: the words a person gets by
// pasting it, read back by the shell itself rather than compared with a spelling.
import { expect } from "bun:test";
import { spawnSync } from "node:child_process";

/** The words `line` gives in `shell`, each as a `printf %s\0` prints it (nothing in the line runs). */
export function wordsIn(shell: string, line: string): string[] {
  const r = spawnSync(shell, ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8", env: { PATH: process.env.PATH!, HOME: "/nonexistent-home" } });
  expect({ shell, line, stderr: r.stderr }).toEqual({ shell, line, stderr: "" });
  return r.stdout.split("\0").slice(0, -1);
}
