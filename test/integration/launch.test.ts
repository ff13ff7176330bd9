import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { spexAsync } from "./backend-support";
import { countingBin, installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function record(s: Sandbox, id: string): Record<string, any> {
  const [key] = readdirSync(join(s.home, "projects"));
  return JSON.parse(readFileSync(join(s.home, "projects", key!, "sessions", id, "session.json"), "utf8"));
}

function row(s: Sandbox, id: string): Record<string, any> {
  return JSON.parse(s.spex(["session", "ls", id, "--json"]).stdout)[0];
}

describe("launching an agent", () => {
  test("the prompt seam: a prompt starting with - reaches the agent with one leading space, quotes byte for byte", async () => {
    sb = sandbox();
    const agents = installFakeAgents(sb);
    for (const prompt of ["-rf --resume", "'; rm -rf ~ #\"$(x)`y`\\n", "--resume"]) {
      const r = sb.spex(["session", "new", "--launcher", "claude", "--json", "--prompt-file", "-"], { input: prompt });
      expect(r.stderr).toBe("");
      const id = JSON.parse(r.stdout).session_id;
      const argv = await waitFor(
        () => agents.entries().find((e) => e.kind === "argv" && e.argv.includes("--session-id") && e.argv[e.argv.indexOf("--session-id") + 1] === record(sb, id).harness_session_id)?.argv,
        "the agent's argv",
      );
      expect(argv[argv.length - 1]).toBe(prompt.startsWith("-") ? ` ${prompt}` : prompt);
      expect(argv.filter((a: string) => a === "--session-id")).toHaveLength(1);
    }
  });

  test("readiness: the fence clears on SessionStart, active on the turn, idle on Stop; the binary runs only on changes", async () => {
    sb = sandbox();
    const agents = installFakeAgents(sb);
    const counter = countingBin(sb, SPEX_BIN);
    sb.env.FAKE_AGENT_TURN_MS = "600";
    const r = sb.spex(["session", "new", "--launcher", "claude", "--json", "say hi"]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    expect(created.launch_readiness_pending).toBe("");
    const id = created.session_id;
    expect(record(sb, id).agent_pid).toMatch(/^\d+$/);
    // The native id recorded is the one the agent reported at SessionStart.
    expect(record(sb, id).harness_session_id).toBe(agents.entries().find((e) => e.kind === "argv")!.argv[1]);
    await waitFor(() => row(sb, id).display === "working" || row(sb, id).display === "idle", "working");
    await waitFor(() => row(sb, id).display === "idle", "idle after Stop");
    const hookCalls = counter.calls().filter((c) => c.startsWith("internal hook"));
    // SessionStart (fence) and Stop (→ idle) change the record; the first turn was already active.
    expect(hookCalls).toEqual(["internal hook claude start SessionStart", "internal hook claude stop Stop"]);

    // A second turn typed into the composer: active, then idle again, two more writes.
    sb.tmux(["send-keys", "-t", `=${record(sb, id).tmux_session}:`, "-l", "again"]);
    sb.tmux(["send-keys", "-t", `=${record(sb, id).tmux_session}:`, "Enter"]);
    await waitFor(() => agents.entries().some((e) => e.kind === "prompt" && e.text === "again"), "second prompt");
    await waitFor(() => counter.calls().filter((c) => c.startsWith("internal hook")).length === 4, "two more hook writes");
    await waitFor(() => row(sb, id).display === "idle", "idle again");
    expect(counter.calls().filter((c) => c.startsWith("internal hook")).slice(2)).toEqual([
      "internal hook claude turn UserPromptSubmit",
      "internal hook claude stop Stop",
    ]);
  });

  test("a launch whose pane dies before readiness rolls the create back and reports the last screen", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { broken: { harness: "claude", command: "sh -c 'echo cannot-start-agent; exit 3'" } } }));
    const r = sb.spex(["session", "new", "--launcher", "broken", "--json", "doomed"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[launch_failed]");
    expect(r.stderr).toContain("cannot-start-agent");
    // The session is gone: the hint says so rather than sending anyone to resume or close it.
    const error = JSON.parse(r.stdout).error;
    expect(error.rolledBack).toBe(true);
    expect(error.hint).toContain("rolled back");
    expect(error.hint).not.toMatch(/resume|close/);
    expect(sb.git(["worktree", "list"]).trim().split("\n")).toHaveLength(1);
    expect(sb.git(["branch", "--list", "spex/*"]).trim()).toBe("");
    expect(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)).toEqual([]);
    expect(sb.tmux(["list-sessions"]).stdout.trim()).toBe("");
  });

  test("a launch whose tmux session is ended from outside before readiness says so, not a blank last screen", async () => {
    sb = sandbox();
    // A claude launcher whose command never reports SessionStart: the launch waits on its readiness.
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { mute: { harness: "claude", command: "sh -c 'exec sleep 600'" } } }));
    const pending = spexAsync(sb, ["session", "new", "--launcher", "mute", "--json", "waits"], { env: { SPEX_READY_TIMEOUT_MS: "60000" } });
    const name = await waitFor(() => {
      const names = sb.tmux(["list-sessions", "-F", "#{session_name}"]).stdout.trim();
      return names === "" ? undefined : names;
    }, "the launch's tmux session");
    // A neighbour keeps the server up, with a name that starts with the launch's own (as a fleet's can).
    expect(sb.tmux(["new-session", "-d", "-s", `${name}0`, "sleep 600"]).status).toBe(0);
    sb.tmux(["kill-session", "-t", `=${name}`]);
    const r = await pending;
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe("launch_failed");
    expect(error.message).toContain("ended before its agent was ready");
    expect(error.message).toContain("(tmux: can't find session");
    expect(error.message).not.toContain("(blank)");
    expect(error.rolledBack).toBe(true);
  });

  test("the shell harness runs any command with the prompt as its last argument", async () => {
    sb = sandbox();
    const out = join(sb.dir, "shell-args.txt");
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { rec: { harness: "shell", command: `sh -c 'printf "%s" "$1" > ${out}; exec sleep 600' rec` } } }));
    const r = sb.spex(["session", "new", "--launcher", "rec", "--json", "multi\nline 'prompt'"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ready).toBe(true);
    await waitFor(() => existsSync(out) && readFileSync(out, "utf8") === "multi\nline 'prompt'", "the command's argument");
    const c = JSON.parse(r.stdout);
    expect(c.launcher).toBe("rec");
    expect(c.harness).toBe("shell");
    expect(c.launch_cmd).toContain("exec sleep 600");
  });
});

describe("whatever the user's login shell", () => {
  // tmux hands a one-string command to the server's default-shell, which is $SHELL: a service account's
  // nologin, nushell, or what a tmux.conf sets. The launch script must start without any of them.
  test("a session starts when $SHELL is nologin (a service account under systemd or cron) and the agent gets its prompt", async () => {
    sb = sandbox();
    const nologin = ["/usr/sbin/nologin", "/sbin/nologin", "/bin/false"].find((p) => existsSync(p))!;
    const out = join(sb.dir, "ran.txt");
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { rec: { harness: "shell", command: `sh -c 'printf "%s" "$1" > ${out}; exec sleep 600' rec` } } }));
    const r = sb.spex(["session", "new", "--launcher", "rec", "--json", "hello"], { env: { SHELL: nologin } });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(r.stdout).ready).toBe(true);
    await waitFor(() => existsSync(out) && readFileSync(out, "utf8") === "hello", "the command's argument");
  });
});

describe("crash at each create step", () => {
  for (const step of ["receipt", "branch", "worktree", "render", "record", "published"]) {
    test(`kill -9 at "${step}" leaves no half-made session once the next command runs`, () => {
      sb = sandbox();
      const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "crashy"], { env: { SPEX_TEST_CRASH_AT: step } });
      expect(r.code).not.toBe(0);
      const ls = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout);
      const worktrees = sb.git(["worktree", "list"]).trim().split("\n");
      const branches = sb.git(["branch", "--list", "spex/*"]).trim();
      if (step === "record" || step === "published") {
        // Published: the record is complete and owns its worktree and branch.
        expect(ls).toHaveLength(1);
        expect(worktrees).toHaveLength(2);
        expect(branches).not.toBe("");
      } else {
        expect(ls).toEqual([]);
        expect(worktrees).toHaveLength(1);
        expect(branches).toBe("");
      }
      const doctor = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
      expect(doctor.orphans.abandonedCreates).toEqual([]);
      expect(doctor.orphans.worktrees).toEqual([]);
    });
  }
});

/** Start `spex session new` in the background; resolves with the session id once its agent recorded its pid. */
async function newKilledWhileWaiting(s: Sandbox, prompt: string): Promise<string> {
  writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ launchers: { waits: { harness: "claude", command: "sh -c 'sleep 600' waits" } } }));
  // Claude-style readiness never arrives from `sleep`: new waits, and is killed while it does.
  const child = spawn(SPEX_BIN, ["session", "new", "--launcher", "waits", "--json", prompt], { cwd: s.repo, env: { ...s.env, SPEX_READY_TIMEOUT_MS: "600000" }, stdio: "ignore" });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const sessions = () => {
    const projects = join(s.home, "projects");
    if (!existsSync(projects)) return [];
    return readdirSync(projects).flatMap((k) => {
      const dir = join(projects, k, "sessions");
      return existsSync(dir) ? readdirSync(dir).map((id) => join(dir, id)) : [];
    });
  };
  const dir = await waitFor(() => sessions().find((d) => existsSync(join(d, "agent.pid"))), "the agent to record its pid", 30000);
  child.kill("SIGKILL");
  await exited;
  const id = dir.split("/").pop()!;
  expect(record(s, id).launch_readiness_pending).not.toBe("");
  return id;
}

function stateEvents(s: Sandbox, id: string): Record<string, any>[] {
  const [key] = readdirSync(join(s.home, "projects"));
  const file = join(s.home, "projects", key!, "sessions", id, "timeline.ndjson");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.kind === "state");
}

describe("a launch nobody waits on any more", () => {
  test("after new is killed -9 mid-wait, the next readers take the live, proven agent as ready, recorded once; resume agrees", async () => {
    sb = sandbox();
    const id = await newKilledWhileWaiting(sb, "stuck launch");
    const [pid, start] = readFileSync(join(sb.home, "projects", readdirSync(join(sb.home, "projects"))[0]!, "sessions", id, "agent.pid"), "utf8").trim().split(" ");
    // Two readers at once: one of them publishes readiness, the other finds it done.
    const [a, b] = await Promise.all([spexAsync(sb, ["session", "ls", id, "--json"]), spexAsync(sb, ["session", "show", id, "--json"])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(JSON.parse(a.stdout)[0].display).toBe("working");
    expect(JSON.parse(b.stdout).display).toBe("working");
    const r = record(sb, id);
    expect([r.launch_readiness_pending, r.agent_pid, r.agent_start, r.status, r.stopped]).toEqual(["", pid, start, "active", false]);
    expect(stateEvents(sb, id).filter((e) => e.status === "active" && e.stopped === false)).toHaveLength(1);
    // resume sees what ls shows: a running agent (and --force no longer finds a launch in progress).
    const resume = sb.spex(["session", "resume", id, "--json"]);
    expect(JSON.parse(resume.stdout).error.code).toBe("session_running");
    const forced = sb.spex(["session", "resume", id, "--force", "--json"], { env: { SPEX_READY_TIMEOUT_MS: "1" } });
    expect(forced.stderr).not.toContain("launch_in_progress");
    expect(forced.code).toBe(0);
  });

  test("after new is killed -9 mid-wait and its pane is gone, the next reader shows the original again", async () => {
    sb = sandbox();
    const id = await newKilledWhileWaiting(sb, "stuck launch");
    sb.tmux(["kill-session", "-t", `=${record(sb, id).tmux_session}`]);
    expect(row(sb, id).display).toBe("offline");
    const r = record(sb, id);
    expect([r.launch_readiness_pending, r.status, r.stopped, r.agent_pid]).toEqual(["", "idle", true, ""]);
    // A failed launch emits no lifecycle event: readers saw the original all along.
    expect(stateEvents(sb, id)).toEqual([]);
  });

  test("a launch whose new gave up waiting is settled by the next reader as what its agent became", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { waits: { harness: "claude", command: "sh -c 'sleep 600' waits" } } }));
    // new gives up at once and leaves the fence up; it has exited, so the next reader settles it.
    const r = sb.spex(["session", "new", "--launcher", "waits", "--json", "slow launch"], { env: { SPEX_READY_TIMEOUT_MS: "1" } });
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(false);
    expect(created.launch_readiness_pending).not.toBe("");
    expect(row(sb, created.session_id).display).toBe("working");
  });
});
