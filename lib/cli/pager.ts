// Long output on a terminal goes through a pager, chosen the way git chooses
// one: GIT_PAGER, the repository's core.pager, PAGER, else `less` with
// LESS=FRX when LESS is unset (quit when it fits one screen, keep colours,
// leave the screen as it was). "" or `cat` means no pager. Never on a pipe.
import { spawnSync } from "node:child_process";
import type { Writable } from "node:stream";
import { gitSync } from "../git/sync";

export interface PagerChoice {
  /** The command line a person configured, run by `sh -c`; undefined for the default, `less`. */
  command?: string;
  env: Record<string, string>;
}

/** The pager a person has asked for, or undefined for none. `cwd` is where core.pager is read. */
export function choosePager(env: Record<string, string | undefined>, cwd: string): PagerChoice | undefined {
  const command = env.GIT_PAGER ?? configuredPager(cwd) ?? env.PAGER;
  if (command !== undefined && (command.trim() === "" || command.trim() === "cat")) return undefined;
  const extra: Record<string, string> = {};
  if (env.LESS === undefined) extra.LESS = "FRX";
  if (env.LV === undefined) extra.LV = "-c";
  return { command, env: extra };
}

function configuredPager(cwd: string): string | undefined {
  const r = gitSync(cwd, ["config", "--get", "core.pager"]);
  return r.code === 0 ? r.stdout.replace(/\n$/, "") : undefined;
}

/**
 * Write `text` through the pager (waiting until the person quits it), or
 * straight to `out` when there is none or it cannot start.
 */
export function writePaged(out: Writable, text: string, pager: PagerChoice | undefined, env: Record<string, string | undefined>): void {
  if (!pager) {
    out.write(text);
    return;
  }
  const options = { input: text, stdio: ["pipe", "inherit", "inherit"] as ("pipe" | "inherit")[], env: { ...env, ...pager.env } };
  // The default is not worth a failure: without less on PATH the text is written as it is.
  const r = pager.command === undefined ? spawnSync("less", [], options) : spawnSync("sh", ["-c", pager.command], options);
  if (r.error) out.write(text);
}
