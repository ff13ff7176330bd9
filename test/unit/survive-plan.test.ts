// How the tmux server is started (issue 27 item 1) and what doctor says about a
// logout: pure answers from the machine's facts.
import { describe, expect, test } from "bun:test";
import { logoutCheck, offlineReason, parseLogind, planServerStart, scopeUnitName } from "../../lib/survive";

const SYSTEMD_RUN = "/usr/bin/systemd-run";
const SETSID = "/usr/bin/setsid";

describe("planServerStart", () => {
  test("a reachable user manager starts the server in a scope of its own, named after the socket", () => {
    const plan = planServerStart({ systemdRun: SYSTEMD_RUN, logind: undefined, setsid: SETSID }, "spex", "a1b2c3");
    expect(plan).toEqual({
      kind: "scope",
      unit: "spex-tmux-spex-a1b2c3.scope",
      prefix: [SYSTEMD_RUN, "--user", "--scope", "--quiet", "--collect", "--unit=spex-tmux-spex-a1b2c3.scope", "--"],
    });
  });

  test("the scope is used when logind kills at logout, and when the user lingers", () => {
    const kills = planServerStart({ systemdRun: SYSTEMD_RUN, logind: { killUserProcesses: true, linger: false }, setsid: SETSID }, "spex", "x");
    const lingers = planServerStart({ systemdRun: SYSTEMD_RUN, logind: { killUserProcesses: false, linger: true }, setsid: SETSID }, "spex", "x");
    expect(kills.kind).toBe("scope");
    expect(lingers.kind).toBe("scope");
  });

  test("where logind kills nothing and the user manager stops at logout, the login session is the safer home: setsid", () => {
    const plan = planServerStart({ systemdRun: SYSTEMD_RUN, logind: { killUserProcesses: false, linger: false }, setsid: SETSID }, "spex", "x");
    expect(plan).toEqual({ kind: "setsid", prefix: [SETSID, "--wait"] });
  });

  test("no user manager: a process session of its own; no setsid either: tmux as it is", () => {
    expect(planServerStart({ systemdRun: undefined, logind: undefined, setsid: SETSID }, "spex", "x")).toEqual({ kind: "setsid", prefix: [SETSID, "--wait"] });
    expect(planServerStart({ systemdRun: undefined, logind: undefined, setsid: undefined }, "spex", "x")).toEqual({ kind: "plain", prefix: [] });
  });

  test("a unit name holds only what systemd takes, whatever the socket's name", () => {
    expect(scopeUnitName("my sock;$(rm -rf ~)/x", "n0")).toBe("spex-tmux-my_sock___rm_-rf____x-n0.scope");
    expect(scopeUnitName("", "n0")).toBe("spex-tmux-default-n0.scope");
    expect(scopeUnitName("a".repeat(200), "n0")).toHaveLength("spex-tmux-".length + 64 + "-n0.scope".length);
  });
});

describe("logind facts and the doctor check", () => {
  test("loginctl's properties are read; a missing one answers nothing", () => {
    expect(parseLogind("KillUserProcesses=yes\n", "Linger=no\n")).toEqual({ killUserProcesses: true, linger: false });
    expect(parseLogind("KillUserProcesses=no\n", "Linger=yes\n")).toEqual({ killUserProcesses: false, linger: true });
    expect(parseLogind("", "Linger=no\n")).toBeUndefined();
  });

  test("a logout that would end the fleet is a warning with the quoted command that keeps it", () => {
    const check = logoutCheck({ killUserProcesses: true, linger: false }, "o'brien");
    expect(check).toMatchObject({ ok: false, required: false, code: "logout_kills_fleet" });
    expect(check.detail).toContain(`loginctl enable-linger 'o'\\''brien'`);
  });

  test("lingering, logind that kills nothing, or no logind: no warning", () => {
    expect(logoutCheck({ killUserProcesses: true, linger: true }, "u").ok).toBe(true);
    expect(logoutCheck({ killUserProcesses: false, linger: false }, "u").ok).toBe(true);
    expect(logoutCheck(undefined, "u").ok).toBe(true);
  });
});

describe("offlineReason", () => {
  const facts = (running: boolean | undefined) => ({ boot: "boot-now", serverRunning: () => running });
  const gone = { stopped: false, stopped_by: undefined, agent_pid: "4242", agent_boot: "boot-now", tmux_socket: "spex" };

  test("spex ended it: killed, whatever else holds", () => {
    expect(offlineReason({ ...gone, stopped: true, stopped_by: "spex", agent_pid: "" }, facts(false))).toBe("killed");
  });

  test("started in another boot: machine_restarted, before the server's absence", () => {
    expect(offlineReason({ ...gone, agent_boot: "boot-before" }, facts(false))).toBe("machine_restarted");
  });

  test("same boot, no server: tmux_server_gone; the server runs (or cannot tell): agent_exited", () => {
    expect(offlineReason(gone, facts(false))).toBe("tmux_server_gone");
    expect(offlineReason(gone, facts(true))).toBe("agent_exited");
    expect(offlineReason(gone, facts(undefined))).toBe("agent_exited");
  });

  test("its own exit recorded (SessionEnd) stays agent_exited after a restart", () => {
    expect(offlineReason({ ...gone, stopped: true, agent_boot: "boot-before" }, facts(false))).toBe("agent_exited");
  });

  test("a record without a boot (written before spex recorded one) is judged by its server", () => {
    expect(offlineReason({ ...gone, agent_boot: undefined }, facts(false))).toBe("tmux_server_gone");
  });

  test("nothing ran (never launched, a first launch that failed): no reason", () => {
    expect(offlineReason({ ...gone, agent_pid: "" }, facts(false))).toBeNull();
    expect(offlineReason({ ...gone, agent_pid: "", stopped: true }, facts(false))).toBeNull();
  });
});
