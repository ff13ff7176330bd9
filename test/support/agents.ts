// Put stand-in agent CLIs on PATH for a sandbox: the fake agent answers as
// `claude` (and any other names asked for), logging argv, prompts and hooks.
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Sandbox } from "./sandbox";

export const FAKE_AGENT = resolve(__dirname, "fake-agent", "fake-agent.cjs");

export interface FakeAgents {
  binDir: string;
  log: string;
  env: Record<string, string>;
  entries(): Array<Record<string, any>>;
}

export function installFakeAgents(sb: Sandbox, names: string[] = ["claude"]): FakeAgents {
  const binDir = join(sb.dir, "fake-bin");
  mkdirSync(binDir, { recursive: true });
  for (const n of names) {
    const link = join(binDir, n);
    if (!existsSync(link)) symlinkSync(FAKE_AGENT, link);
  }
  const log = join(sb.dir, "fake-agent.log");
  const env = { PATH: `${binDir}:${process.env.PATH}`, FAKE_AGENT_LOG: log };
  Object.assign(sb.env, env);
  return {
    binDir,
    log,
    env,
    entries() {
      if (!existsSync(log)) return [];
      return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    },
  };
}

/** A SPEX_BIN stand-in that logs every call, then runs the real binary. */
export function countingBin(sb: Sandbox, realBin: string): { path: string; calls(): string[] } {
  const path = join(sb.dir, "counting-spex");
  const log = join(sb.dir, "spex-calls.log");
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realBin}' "$@"\n`);
  chmodSync(path, 0o755);
  sb.env.SPEX_SELF_BIN = path;
  return {
    path,
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
  };
}
