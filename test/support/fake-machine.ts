// Another machine faked without sshd: SPEX_SSH_COMMAND names a script that
// answers every call with the same text (its `session ls --json`, say), and
// the machine is registered in the sandbox's SPEX_HOME. For tests that drive
// the board's services in this process, so the process environment is set
// too; `restore` puts it back.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addMachine } from "../../lib/machines";
import type { Sandbox } from "./sandbox";

const KEYS = ["SPEX_HOME", "SPEX_SSH_COMMAND"] as const;

export interface FakeMachine {
  /** The process environment as it was before. */
  restore(): void;
}

/** Machine `name` whose every answer is `answer` (JSON-encoded). */
export async function machineAnswering(sb: Sandbox, name: string, answer: unknown): Promise<FakeMachine> {
  const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  const file = join(sb.dir, `${name}-answer.json`);
  writeFileSync(file, JSON.stringify(answer));
  const ssh = join(sb.dir, `${name}-ssh`);
  writeFileSync(ssh, `#!/bin/sh\ncat '${file}'\n`);
  chmodSync(ssh, 0o755);
  Object.assign(process.env, { SPEX_HOME: sb.home, SPEX_SSH_COMMAND: ssh });
  await addMachine({ name, destination: name, port: null, repo: "/srv/repo" }, sb.home);
  return {
    restore() {
      for (const k of KEYS) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    },
  };
}
