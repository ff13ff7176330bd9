// Why each session's agent is gone (issue 27 item 2): `ls` (table and JSON),
// `show` and the snapshot say `killed`, `agent_exited`, `tmux_server_gone`
// or, once the boot id changed (the test seam of a restart), `machine_restarted`.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { storedRecord } from "../support/records";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function fleet(s: Sandbox, n: number): string[] {
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ launchers: { sleeper: { harness: "shell", command: "sh -c 'exec sleep 600' sleeper" } } }));
  return Array.from({ length: n }, (_, i) => {
    const r = s.spex(["session", "new", "--launcher", "sleeper", "--json", `session ${i}`]);
    expect(r.stderr).toBe("");
    return JSON.parse(r.stdout).session_id as string;
  });
}

function reasons(s: Sandbox, env: Record<string, string> = {}): Record<string, { liveness: string; offlineReason: string | null }> {
  const r = s.spex(["session", "ls", "--all", "--json"], { env });
  expect(r.code).toBe(0);
  return Object.fromEntries(JSON.parse(r.stdout).map((row: any) => [row.id, { liveness: row.liveness, offlineReason: row.offlineReason }]));
}

/** A live process (a zombie its parent has not reaped yet is gone). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe("why an agent is gone", () => {
  test("stop says killed, an agent that died says agent_exited, a dead server tmux_server_gone, a new boot machine_restarted", async () => {
    sb = sandbox();
    const [a, b, c, d] = fleet(sb, 4) as [string, string, string, string];
    // The boot the agent started in is recorded beside its start identity.
    expect(storedRecord(sb.home, a).agent_boot).toBe(readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
    expect(Object.values(reasons(sb))).toEqual(Array(4).fill({ liveness: "online", offlineReason: null }));

    expect(sb.spex(["session", "stop", d]).code).toBe(0);
    const cPid = Number(storedRecord(sb.home, c).agent_pid);
    process.kill(cPid, "SIGKILL");
    await waitFor(() => !alive(cPid), "the agent of c gone");
    expect(reasons(sb)).toEqual({
      [a]: { liveness: "online", offlineReason: null },
      [b]: { liveness: "online", offlineReason: null },
      [c]: { liveness: "offline", offlineReason: "agent_exited" },
      [d]: { liveness: "offline", offlineReason: "killed" },
    });

    // The tmux server dies and takes every agent with it.
    const pids = [a, b].map((id) => Number(storedRecord(sb.home, id).agent_pid));
    sb.tmux(["kill-server"]);
    await waitFor(() => pids.every((p) => !alive(p)), "the agents gone with their server");
    const serverGone = reasons(sb);
    expect(serverGone[a]).toEqual({ liveness: "offline", offlineReason: "tmux_server_gone" });
    expect(serverGone[b]).toEqual({ liveness: "offline", offlineReason: "tmux_server_gone" });
    expect(serverGone[d]).toEqual({ liveness: "offline", offlineReason: "killed" });

    // The machine restarted: another boot id.
    const restarted = { SPEX_TEST_BOOT_ID: "another-boot" };
    expect(reasons(sb, restarted)).toEqual({
      [a]: { liveness: "offline", offlineReason: "machine_restarted" },
      [b]: { liveness: "offline", offlineReason: "machine_restarted" },
      [c]: { liveness: "offline", offlineReason: "machine_restarted" },
      [d]: { liveness: "offline", offlineReason: "killed" },
    });
    const table = sb.spex(["session", "ls"], { env: restarted }).stdout;
    expect(table.split("\n").filter((l) => l.includes("offline · machine_restarted"))).toHaveLength(3);
    expect(table).toContain("offline · killed");
    const shown = sb.spex(["session", "show", a], { env: restarted }).stdout;
    expect(shown).toMatch(/^offline +machine_restarted: the machine restarted since the agent started$/m);
    expect(JSON.parse(sb.spex(["session", "show", a, "--json"], { env: restarted }).stdout).offlineReason).toBe("machine_restarted");
    const snapshot = JSON.parse(sb.spex(["snapshot", "--json"], { env: restarted }).stdout);
    expect(snapshot.sessions.find((r: any) => r.id === d).offlineReason).toBe("killed");
    expect(snapshot.sessions.find((r: any) => r.id === b).offlineReason).toBe("machine_restarted");
  }, 120000);

  test("an agent that reports its end as its server dies (Claude Code's SessionEnd on the hangup) reads tmux_server_gone, mid-turn as it was", async () => {
    sb = sandbox();
    installFakeAgents(sb, ["claude"]);
    // Each turn takes a while: the server dies in the middle of the first one.
    sb.env.FAKE_AGENT_TURN_MS = "60000";
    const made = sb.spex(["session", "new", "--launcher", "claude", "--json", "a long turn"]);
    expect(made.stderr).toBe("");
    const id = JSON.parse(made.stdout).session_id as string;
    await waitFor(() => storedRecord(sb.home, id).status === "active", "the turn under way", 30000);
    const pid = Number(storedRecord(sb.home, id).agent_pid);
    sb.tmux(["kill-server"]);
    await waitFor(() => !alive(pid), "the agent gone with its server", 30000);
    // Its SessionEnd hook, as the dying agent runs it (whether the stand-in's own got that far or not).
    const hook = sb.spex(["internal", "hook", "claude", "end", "SessionEnd"], { env: { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: sb.repo }, input: JSON.stringify({ reason: "other" }) });
    expect(hook.code).toBe(0);
    expect(reasons(sb)[id]).toEqual({ liveness: "offline", offlineReason: "tmux_server_gone" });
    expect(storedRecord(sb.home, id)).toMatchObject({ status: "active", stopped: false });
    // So resume --all sees a session that died mid-turn (its --note goes to it).
    const plan = JSON.parse(sb.spex(["session", "resume", "--all", "--dry-run", "--json"]).stdout);
    expect(plan.entries).toEqual([expect.objectContaining({ id, reason: "tmux_server_gone" })]);
  }, 120000);
});
