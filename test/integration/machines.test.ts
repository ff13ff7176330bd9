// Several machines over real OpenSSH on loopback: two sshd, each standing for
// a machine with its own HOME, SPEX_HOME, tmux and agents, reached by the
// built binary through SPEX_SSH_COMMAND="ssh -F <generated config>".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type SshFleet, type SshMachine, sshFleet, sshUnavailable } from "../support/ssh-machines";

const unavailable = sshUnavailable();
if (unavailable) console.warn(`skipping the multi-machine tests: ${unavailable}`);

let sb: Sandbox;
let fleet: SshFleet;
let m1: SshMachine;
let m2: SshMachine;

const json = (text: string) => JSON.parse(text);
const spex = (args: string[], input?: string) => sb.spex(args, { input });
const ok = (args: string[], input?: string) => {
  const r = spex(args, input);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
};
/** spex run on a machine as one of its sessions would run it (its own SPEX_SESSION_ID, from its repository). */
const asSession = (m: SshMachine, id: string, args: string[]) =>
  m.ssh(`cd '${m.repo.replace(/'/g, `'\\''`)}' && SPEX_SESSION_ID=${id} "$HOME/.local/bin/spex" ${args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ")}`);
/** The same, where it must succeed: a failure shows its exit code and stderr. */
const okAsSession = (m: SshMachine, id: string, args: string[]) => {
  const r = asSession(m, id, args);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} on ${m.name} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
};

async function launched(m: SshMachine, prompt: string): Promise<string> {
  const created = json(ok(["session", "new", "--machine", m.name, "--launcher", "claude", "--json", prompt]));
  expect(created.machine).toBe(m.name);
  const id: string = created.session_id;
  const waited = json(ok(["session", "wait", `${m.name}:${id}`, "--idle", "--timeout", "60", "--json"]));
  expect(waited.outcome).toBe("reached");
  return id;
}

const prompts = (m: SshMachine) => m.agentEntries().filter((e) => e.kind === "prompt").map((e) => e.text as string);

describe.skipIf(unavailable !== undefined)("several machines over OpenSSH", () => {
  beforeAll(async () => {
    sb = sandbox();
    fleet = await sshFleet(sb, ["m1", "m2"]);
    [m1, m2] = fleet.machines as [SshMachine, SshMachine];
    Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local", SPEX_TMUX_SERVERS: sb.tmuxSocket });
  });
  afterAll(async () => {
    await fleet?.cleanup();
    sb?.cleanup();
  });

  test("machine add, install and ls: names and destinations are checked, each machine reports its spex, OS/arch and load, and a second install copies nothing", () => {
    expect(spex(["machine", "add", "a:b", "m1"]).stderr).toContain("[machine_name_invalid]");
    // A destination ssh would read as an option never reaches ssh.
    const option = spex(["machine", "add", "evil", "--", "-oProxyCommand=touch /tmp/spex-pwned"]);
    expect(option.stderr).toContain("[machine_destination_invalid]");
    expect(option.code).toBe(2);

    ok(["machine", "add", "m1", "m1", "--repo", m1.repo]);
    ok(["machine", "add", "m2", "root@127.0.0.1", "--port", String(m2.port), "--repo", m2.repo]);
    expect(spex(["machine", "add", "M1", "m1"]).stderr).toContain("[machine_exists]");
    expect(json(readFileSync(join(sb.home, "machines.json"), "utf8")).machines.map((m: any) => [m.name, m.destination, m.port])).toEqual([["m1", "m1", null], ["m2", "root@127.0.0.1", m2.port]]);

    const before = json(ok(["machine", "ls", "--json"]));
    expect(before.map((s: any) => [s.name, s.reachable, s.facts.spex, s.facts.os])).toEqual([["m1", true, null, "Linux"], ["m2", true, null, "Linux"]]);
    expect(typeof before[0].facts.load1).toBe("number");

    for (const m of [m1, m2]) expect(json(ok(["machine", "install", m.name, "--json"])).outcome).toBe("installed");
    const after = json(ok(["machine", "ls", "--json"]));
    expect(after.map((s: any) => [s.name, s.current, s.facts.spex.path])).toEqual([
      ["m1", true, join(m1.home, ".local/bin/spex")],
      ["m2", true, join(m2.home, ".local/bin/spex")],
    ]);
    const mtime = statSync(join(m1.home, ".local/bin/spex")).mtimeMs;
    expect(json(ok(["machine", "install", "m1", "--json"])).outcome).toBe("current");
    expect(statSync(join(m1.home, ".local/bin/spex")).mtimeMs).toBe(mtime);
    expect(ok(["machine", "ls"])).toMatch(/^m1 +m1 +yes +\d/m);
  });

  test("install refuses a machine of another OS/arch and copies nothing", () => {
    const uname = join(m2.binDir, "uname");
    writeFileSync(uname, `#!/bin/sh\ncase "$1" in -s) echo Darwin;; -m) echo arm64;; *) echo Darwin;; esac\n`);
    chmodSync(uname, 0o755);
    try {
      const mtime = statSync(join(m2.home, ".local/bin/spex")).mtimeMs;
      const r = spex(["machine", "install", "m2", "--force"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("machine m2 runs Darwin/arm64");
      expect(r.stderr).toContain("[machine_platform_mismatch]");
      expect(statSync(join(m2.home, ".local/bin/spex")).mtimeMs).toBe(mtime);
    } finally {
      rmSync(uname);
    }
  });

  test("new on each machine; live --all-machines answers rows from both, each marked with its machine", async () => {
    const a = await launched(m1, "work on the first machine");
    const b = await launched(m2, "work on the second machine");
    const entries = json(ok(["session", "live", "--all-machines", "--json"]));
    expect(entries.filter((e: any) => e.error)).toEqual([]);
    const rowOf = (id: string) => entries.find((e: any) => e.sessionId === id);
    expect([rowOf(a)?.machine, rowOf(a)?.status, rowOf(a)?.isOpenSession]).toEqual(["m1", "idle", true]);
    expect([rowOf(b)?.machine, rowOf(b)?.status, rowOf(b)?.isOpenSession]).toEqual(["m2", "idle", true]);
    // Each machine's panes are its own: no row of m1 names m2's session and back.
    expect(new Set(entries.map((e: any) => e.machine))).toEqual(new Set(["m1", "m2"]));
    expect(ok(["session", "live", "--machine", "m2"])).toMatch(/^MACHINE +TARGET/);
    // NAME:SEL and --machine reach the same session.
    expect(json(ok(["session", "show", `m2:${b.slice(0, 8)}`, "--json"])).id).toBe(b);
    expect(json(ok(["session", "ls", "--machine", "m2", "--json"])).map((r: any) => [r.id, r.machine])).toContainEqual([b, "m2"]);
  });

  test("hostile argument strings arrive intact: prompts, names and messages with quotes, $(…), backticks, newlines, a leading '-', unicode; NULs over stdin", async () => {
    const hostile = [
      "-rf --resume",
      `'; touch pwned-q #"$(touch pwned-s)\`touch pwned-b\`\\n`,
      "first line\nsecond line\n\tindented",
      "ünïcødé 日本語 🚀 $HOME ${PATH} * ? [a] ~ \\",
      "--",
    ];
    for (const text of hostile) {
      const r = spex(["session", "new", "--machine", "m1", "--launcher", "shell", "--no-launch", "--json", "--", text]);
      expect({ text, code: r.code, stderr: r.stderr }).toEqual({ text, code: 0, stderr: "" });
      const id = json(r.stdout).session_id;
      expect(json(ok(["session", "show", `m1:${id}`, "--json"])).prompt).toBe(text);
      ok(["session", "rename", `m1:${id}`, `name ${text}`]);
      expect(json(ok(["session", "show", id, "--machine", "m1", "--json"])).name).toBe(`name ${text}`);
    }
    const withNul = "before\u0000after 'q' $(x)";
    const file = join(sb.dir, "nul-prompt");
    writeFileSync(file, withNul);
    const nul = json(ok(["session", "new", "--machine", "m1", "--launcher", "shell", "--no-launch", "--json", "--prompt-file", file]));
    expect(json(ok(["session", "show", `m1:${nul.session_id}`, "--json"])).prompt).toBe(withNul);

    // Messages typed into a running agent there, byte for byte but for the seam's one space.
    const agent = await launched(m1, "take messages");
    const message = `it's "$(whoami)" \`id\` ; exit\nsecond line ünï 🚀`;
    ok(["session", "send", `m1:${agent}`, "--json", "--", message]);
    ok(["session", "send", `m1:${agent}`, "--json", "--", "-dash first"]);
    await waitFor(() => prompts(m1).includes(" -dash first"), "both messages typed on m1", 30000);
    expect(prompts(m1)).toContain(message);
    const cwd = m1.ssh("pwd").stdout.trim();
    for (const planted of ["pwned-q", "pwned-s", "pwned-b"]) for (const dir of [cwd, m1.home, m1.repo]) expect(existsSync(join(dir, planted))).toBe(false);
  });

  test("messages between machines: a session on m1 sends to one on m2 as m1:<id>, its own message never wakes its wait, and the reply finds it", async () => {
    const x = await launched(m1, "the sender");
    const t = await launched(m2, "the target");
    okAsSession(m1, x, ["machine", "add", "m2", "m2"]);
    // Without a repository named there, a session verb cannot guess one.
    expect(asSession(m1, x, ["session", "ls", "--machine", "m2"]).stderr).toContain("[machine_repo_missing]");
    okAsSession(m1, x, ["machine", "rm", "m2"]);
    okAsSession(m1, x, ["machine", "add", "m2", "m2", "--repo", m2.repo]);
    okAsSession(m2, t, ["machine", "add", "m1", "m1", "--repo", m1.repo]);

    // The sender's wait places its cursor (kept on m2 under its cross-machine name).
    expect(json(okAsSession(m1, x, ["session", "wait", `m2:${t}`, "--idle", "--json", "--timeout", "30"])).outcome).toBe("reached");
    expect(json(okAsSession(m1, x, ["session", "send", `m2:${t}`, "hello from m1", "--json"])).machine).toBe("m2");
    const header = `[message from session m1:${x.slice(0, 8)} on machine m1; reply with: spex session send m1:${x.slice(0, 8)} "..."]\n`;
    await waitFor(() => prompts(m2).includes(`${header}hello from m1`), "the message typed on m2 with its sender", 30000);

    const next = json(okAsSession(m1, x, ["session", "wait", `m2:${t}`, "--json", "--timeout", "30"]));
    expect(next.outcome).toBe("reached");
    expect(next.events.length).toBeGreaterThan(0);
    expect(next.events.filter((e: any) => e.kind === "message_in")).toEqual([]);
    const timeline = readFileSync(join(m2.spexHome, "projects", readdirOne(join(m2.spexHome, "projects")), "sessions", t, "timeline.ndjson"), "utf8");
    expect(timeline).toContain(JSON.stringify({ kind: "name", name: `m1:${x}` }));

    // The reply the header suggests reaches the sender on m1.
    okAsSession(m2, t, ["session", "send", `m1:${x.slice(0, 8)}`, "thanks from m2"]);
    await waitFor(() => prompts(m1).some((p) => p.endsWith(`reply with: spex session send m2:${t.slice(0, 8)} "..."]\nthanks from m2`)), "the reply typed on m1", 30000);
  });

  test("stop, resume, read, archive and close run on the machine that holds the session (its repository named with --repo)", async () => {
    const created = json(ok(["session", "new", "--machine", "m2", "--repo", m2.repo, "--launcher", "claude", "--json", "to be closed"]));
    const id: string = created.session_id;
    expect(json(ok(["session", "wait", `m2:${id}`, "--idle", "--timeout", "60", "--json"])).outcome).toBe("reached");
    const tmuxName = json(ok(["session", "show", `m2:${id}`, "--json"])).record.tmux_session;
    expect(json(ok(["session", "stop", `m2:${id}`, "--json"])).stopped).toBe(true);
    expect(m2.tmux(["has-session", "-t", `=${tmuxName}`]).code).not.toBe(0);
    expect(json(ok(["session", "show", `m2:${id}`, "--json"])).stopped).toBe(true);

    // resume relaunches it over there, and read shows the screen of that machine's pane.
    const resumed = json(ok(["session", "resume", `m2:${id}`, "--json"]));
    expect([resumed.id, resumed.machine]).toEqual([id, "m2"]);
    expect(m2.tmux(["has-session", "-t", `=${resumed.tmuxSession}`]).code).toBe(0);
    expect(json(ok(["session", "wait", `m2:${id}`, "--idle", "--timeout", "60", "--json"])).outcome).toBe("reached");
    const read = json(ok(["session", "read", "--machine", "m2", id, "--json"]));
    expect([read.source, read.live, read.machine]).toEqual(["pane", true, "m2"]);
    const there = m2.tmux(["capture-pane", "-p", "-t", `=${resumed.tmuxSession}:`]).stdout.trimEnd();
    expect(there).not.toBe("");
    expect(read.screen.trimEnd()).toBe(there);

    // archive --stop files it away there: hidden from ls, its pane gone, its last screen kept.
    ok(["session", "archive", `m2:${id}`, "--stop", "--json"]);
    expect(m2.tmux(["has-session", "-t", `=${resumed.tmuxSession}`]).code).not.toBe(0);
    expect(json(ok(["session", "ls", "--machine", "m2", "--json"])).map((r: any) => r.id)).not.toContain(id);
    const archived = json(ok(["session", "show", `m2:${id}`, "--json"]));
    expect([archived.archived, archived.machine]).toEqual([true, "m2"]);
    expect(json(ok(["session", "read", `m2:${id}`, "--json"])).source).toBe("last-screen");

    const worktree = archived.worktree;
    expect(existsSync(worktree)).toBe(true);
    ok(["session", "close", `m2:${id}`, "--json"]);
    expect(existsSync(worktree)).toBe(false);
    expect(spex(["session", "show", `m2:${id}`]).stderr).toContain("[session_not_found]");
  });

  test("attach opens a terminal on the machine that holds the session (ssh -t): a tmux client appears there, and detaching ends it", async () => {
    const id = await launched(m1, "attach to me");
    const tmuxName = json(ok(["session", "show", `m1:${id}`, "--json"])).record.tmux_session;
    // script(1) gives the attach a terminal, as a user's would be.
    const child = spawn("script", ["-qec", `'${SPEX_BIN}' session attach m1:${id.slice(0, 8)}`, "/dev/null"], { cwd: sb.repo, env: { ...sb.env, TERM: "xterm" }, stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const client = await waitFor(() => m1.tmux(["list-clients", "-F", "#{client_name} #{session_name}"]).stdout.split("\n").find((l) => l.endsWith(` ${tmuxName}`)), "a client attached on m1", 30000);
    m1.tmux(["detach-client", "-t", client.split(" ")[0]!]);
    expect(await exited).toBe(0);
  });

  test("a confirmed bulk stop runs on one machine at a time: every stop on m1 ends before the first on m2 starts", async () => {
    const ids = [await launched(m1, "bulk one"), await launched(m1, "bulk two"), await launched(m2, "bulk three")];
    const env = json(spex(["session", "bulk", "stop", "--all-machines", "--open-only", "--status", "idle", "--yes", "--max-load-per-core", "1000", "--json"]).stdout);
    const mine = env.entries.filter((e: any) => ids.includes(e.sessionId));
    expect(mine.map((e: any) => [e.machine, e.decision, e.outcome?.state])).toEqual([["m1", "queued", "done"], ["m1", "queued", "done"], ["m2", "queued", "done"]]);
    expect(mine[2].argv).toEqual(["spex", "session", "stop", "--machine", "m2", "--repo", m2.repo, ids[2]]);
    const m1End = Math.max(...env.entries.filter((e: any) => e.machine === "m1" && e.outcome).map((e: any) => Date.parse(e.outcome.finishedAt)));
    const m2Start = Math.min(...env.entries.filter((e: any) => e.machine === "m2" && e.outcome).map((e: any) => Date.parse(e.outcome.startedAt)));
    expect(m1End).toBeLessThanOrEqual(m2Start);
    expect(env.machines.map((m: any) => [m.machine, m.ok])).toEqual([["local", true], ["m1", true], ["m2", true]]);
  });

  test("a machine whose sshd is down is one machine_unreachable entry; the other machine still answers", async () => {
    const alive = await launched(m1, "still here");
    await m2.stop();
    try {
      const live = spex(["session", "live", "--all-machines", "--json"]);
      expect(live.code).toBe(0);
      const entries = json(live.stdout);
      expect(entries.some((e: any) => e.sessionId === alive && e.machine === "m1")).toBe(true);
      const errors = entries.filter((e: any) => e.error);
      expect(errors.map((e: any) => [e.machine, e.error.code])).toEqual([["m2", "machine_unreachable"]]);
      expect(errors[0].error.message).toContain("Connection refused");
      expect(live.stderr).toBe("");

      const bulk = spex(["session", "bulk", "status", "--all-machines", "--json"]);
      const envelope = json(bulk.stdout);
      expect(bulk.code).toBe(1);
      expect(envelope.entries.some((e: any) => e.sessionId === alive)).toBe(true);
      expect(envelope.entries.filter((e: any) => e.decision === "refused").map((e: any) => [e.machine, e.error.code])).toEqual([["m2", "machine_unreachable"]]);

      const ls = spex(["session", "ls", "--machine", "m2"]);
      expect([ls.code, ls.stderr.trim().endsWith("[machine_unreachable]")]).toEqual([1, true]);
      expect(json(ok(["machine", "ls", "--json"])).map((s: any) => [s.name, s.reachable])).toEqual([["m1", true], ["m2", false]]);
    } finally {
      await m2.start();
    }
    expect(json(ok(["session", "ls", "--machine", "m2", "--json"]))).toBeInstanceOf(Array);
  });
});

function readdirOne(dir: string): string {
  const names = readdirSync(dir);
  expect(names.length).toBe(1);
  return names[0]!;
}
