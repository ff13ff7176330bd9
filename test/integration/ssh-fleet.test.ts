// The ssh test machines themselves (test/support/ssh-machines.ts): a stopped
// machine is down for good, and no run leaves an sshd connection, a
// connection master or a tmux server behind, even a run killed before its
// teardown. The multi-machine tests rely on both: a connection that survives
// a "stopped" sshd answers for it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type SshFleet, type SshMachine, sshFleet, sshUnavailable } from "../support/ssh-machines";
import { mastersUnder, sshdOn } from "../support/ssh-sweep";

const unavailable = sshUnavailable();

const tmuxAlive = (socket: string, tmpdir: string) => {
  const r = Bun.spawnSync(["tmux", "-L", socket, "list-sessions"], { env: { ...process.env, TMUX_TMPDIR: tmpdir } });
  return r.exitCode === 0;
};

describe.skipIf(unavailable !== undefined)("the ssh test machines", () => {
  let sb: Sandbox;
  let fleet: SshFleet;
  let m: SshMachine;
  const spex = (args: string[]) => sb.spex(args);

  beforeAll(async () => {
    sb = sandbox();
    fleet = await sshFleet(sb, ["m1"]);
    m = fleet.machines[0]!;
    Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local" });
    expect(spex(["machine", "add", "m1", "m1", "--repo", m.repo]).code).toBe(0);
    expect(spex(["machine", "install", "m1"]).code).toBe(0);
  });
  afterAll(async () => {
    await fleet?.cleanup();
    sb?.cleanup();
  });

  test("a machine whose listener died alone (as a kill of the test's process group does) is still stopped for good: the connection left to init answers until stop finds it by its socket", async () => {
    expect(spex(["session", "ls", "--machine", "m1", "--json"]).code).toBe(0);
    const { listeners, connections } = sshdOn([m.port]);
    expect([listeners.length, connections.length]).toEqual([1, 1]);
    process.kill(listeners[0]!, "SIGKILL");
    await waitFor(() => sshdOn([m.port]).listeners.length === 0, "the listener to end");
    // The shared connection outlived its listener, and it still answers for the machine.
    expect(spex(["session", "ls", "--machine", "m1", "--json"]).code).toBe(0);

    await m.stop();
    expect(sshdOn([m.port])).toEqual({ listeners: [], connections: [] });
    const ls = spex(["session", "ls", "--machine", "m1"]);
    expect([ls.code, ls.stderr.trim().endsWith("[machine_unreachable]")]).toEqual([1, true]);
    await m.start();
    expect(spex(["session", "ls", "--machine", "m1", "--json"]).code).toBe(0);
  });

  test("a test process killed before its teardown leaves no sshd, connection master or tmux server behind", async () => {
    // A run of its own, with a master here and one on the machine (a session's spex reaching another machine).
    const script = join(sb.dir, "killed-run.ts");
    writeFileSync(script, `
      import { sandbox } from ${JSON.stringify(join(REPO_ROOT, "test/support/sandbox"))};
      import { sshFleet } from ${JSON.stringify(join(REPO_ROOT, "test/support/ssh-machines"))};
      const sb = sandbox();
      const fleet = await sshFleet(sb, ["m1"]);
      const m = fleet.machines[0];
      Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local" });
      const must = (r) => { if (r.code !== 0) throw new Error(r.stderr); return r; };
      must(sb.spex(["machine", "add", "m1", "m1", "--repo", m.repo]));
      must(sb.spex(["machine", "install", "m1"]));
      must(m.ssh('"$HOME/.local/bin/spex" machine add self m1'));
      must(sb.spex(["session", "new", "--machine", "m1", "--launcher", "shell", "--json", "sleep 600"]));
      console.log(JSON.stringify({ dir: sb.dir, port: m.port, tmux: m.tmuxSocket, tmpdir: m.env.TMUX_TMPDIR }));
      await new Promise(() => {});
    `);
    const child = spawn(process.execPath, [script], { cwd: REPO_ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
    const run = await waitFor(() => {
      if (child.exitCode !== null) throw new Error(`the run ended early: ${err}`);
      return out.includes("\n") && JSON.parse(out);
    }, "the run's fleet to be up", 60000);
    expect(sshdOn([run.port]).connections.length).toBeGreaterThan(0);
    expect(mastersUnder(run.dir).length).toBe(2);
    expect(tmuxAlive(run.tmux, run.tmpdir)).toBe(true);

    process.kill(-child.pid!, "SIGKILL");
    await waitFor(() => sshdOn([run.port]).connections.length + sshdOn([run.port]).listeners.length === 0, "no sshd left on the killed run's port", 30000);
    await waitFor(() => mastersUnder(run.dir).length === 0, "no connection master left in the killed run's folder", 30000);
    await waitFor(() => !tmuxAlive(run.tmux, run.tmpdir), "the killed run's machine tmux to be gone", 30000);
    rmSync(run.dir, { recursive: true, force: true });
  });
});
