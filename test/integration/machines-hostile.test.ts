// A machine that answers like an attacker (issue 21 item 8): its spex prints
// terminal controls (a clipboard write, a title change, a screen clear) and,
// asked for live panes, 300 MB. Over real OpenSSH on loopback, with the built
// binary as the user runs it: what the other machine prints is shown escaped,
// and an answer past the bound is refused without being held whole.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox } from "../support/sandbox";
import { type SshFleet, type SshMachine, sshFleet, sshUnavailable } from "../support/ssh-machines";

setDefaultTimeout(180000);
const unavailable = sshUnavailable();
if (unavailable) console.warn(`skipping the hostile-machine tests: ${unavailable}`);

let sb: Sandbox;
let fleet: SshFleet;
let m1: SshMachine;

const CONTROLS = "\\033]52;c;cHduZWQ=\\007\\033]0;owned-title\\007\\033[2J";

beforeAll(async () => {
  if (unavailable) return;
  sb = sandbox();
  fleet = await sshFleet(sb, ["m1"]);
  m1 = fleet.machines[0]!;
  Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local" });
  // The "spex" that machine runs: controls on both streams, and a flood for `live`.
  const bin = join(m1.home, ".local", "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "spex"), [
    "#!/bin/sh",
    'case "$*" in',
    `  *"session live"*) head -c 314572800 /dev/zero | tr '\\0' x; exit 0 ;;`,
    `  *) printf 'shown ${CONTROLS} \\033[31mred\\033[0m done\\n'; printf 'complaint ${CONTROLS}\\n' >&2; exit 0 ;;`,
    "esac",
    "",
  ].join("\n"));
  chmodSync(join(bin, "spex"), 0o755);
  const added = sb.spex(["machine", "add", "m1", "m1", "--repo", m1.repo]);
  if (added.code !== 0) throw new Error(added.stderr);
});
afterAll(async () => {
  await fleet?.cleanup();
  sb?.cleanup();
});

describe.skipIf(unavailable !== undefined)("a hostile machine", () => {
  test("what it prints reaches this terminal with its controls shown escaped (colours pass); nothing raw", () => {
    const r = sb.spex(["session", "show", "m1:anything"]);
    expect(r.code).toBe(0);
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toMatch(/\u001b\]|\u001b\[2J|\u0007/);
      expect(out).toContain("\\x1b]52;c;cHduZWQ=\\x07");
    }
    expect(r.stdout).toContain("shown ");
    expect(r.stdout).toContain("\u001b[31mred\u001b[0m");
    expect(r.stderr).toContain("complaint ");
  });

  test("a 300 MB answer is refused (machine_answer_too_large) without being held whole", () => {
    const r = spawnSync("/usr/bin/time", ["-f", "maxrss-kb=%M", SPEX_BIN, "session", "live", "--machine", "m1", "--json"], { cwd: sb.repo, env: sb.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const entries = JSON.parse(r.stdout);
    expect(entries).toEqual([{ machine: "m1", error: expect.objectContaining({ code: "machine_answer_too_large" }) }]);
    const rss = Number(/maxrss-kb=(\d+)/.exec(r.stderr)?.[1]);
    // The bound is 64 MiB; holding the answer whole took ~940 MB.
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(300 * 1024);
  });
});
