// The invariants of DESIGN.md §1 and the record-integrity rules of the
// sessions-core contract, each driven through the built binary (or, where a
// race must be staged exactly, through the library in this process). Every
// test here was seen to fail against a deliberately broken build; see
// docs/invariants.md for the table and the breakages tried.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, relative } from "node:path";
import { acquireLock, lockHolder } from "../../lib/lock";
import { listPending, sendMessage } from "../../lib/comms";
import { closeSession } from "../../lib/teardown";
import { projectStore, recordLockPath, sessionPaths } from "../../lib/store";
import { SpexError } from "../../lib/errors";
import { seedRecord } from "../support/records";
import { type Sandbox, REPO_ROOT, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { startFakeAgent } from "../support/comms";
import { alive, hasTmux, seedLive } from "../support/teardown";

setDefaultTimeout(30000);

let sb: Sandbox;
beforeAll(() => {
  sb = sandbox();
});
afterAll(() => sb.cleanup());

const store = () => projectStore(sb.repo, sb.home);
const recordPath = (id: string) => sessionPaths(store(), id).record;
const json = (s: string): any => JSON.parse(s);
const HOOK = join(REPO_ROOT, "hooks", "agent-hook.sh");

/** An executable that logs its argv as one JSON line, then stays alive like an agent would. */
/** A stand-in agent that logs its argv with the spex session it was launched for (launches finish in any order). */
function argvLogger(s: Sandbox, name: string): { path: string; calls(): string[][]; bySession(): Map<string, string[]> } {
  const log = join(s.dir, `${name}.argv`);
  const path = join(s.dir, name);
  writeFileSync(path, `#!/bin/sh\nnode -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify([process.env.SPEX_SESSION_ID, process.argv.slice(2)]) + "\\n")' '${log}' "$@"\nexec sleep 1000\n`);
  chmodSync(path, 0o755);
  const entries = (): Array<[string, string[]]> => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
  return { path, calls: () => entries().map(([, argv]) => argv), bySession: () => new Map(entries()) };
}

describe("1. one writer", () => {
  // strace -ff writes one file per thread, so a thread's syscalls are never interleaved with another's.
  const straceWorks = spawnSync("strace", ["-o", "/dev/null", "true"]).status === 0;

  interface Landing {
    verb: string;
    violations: string[];
    landings: number;
  }

  /** Run the binary (or the hook script) under strace and check every way session.json was touched. */
  function traced(verb: string, cmd: string[], opts: { input?: string; env?: Record<string, string> } = {}): Landing {
    const dir = join(sb.dir, `strace-${verb.replace(/\W+/g, "-")}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const r = spawnSync("strace", ["-ff", "-s", "256", "-e", "trace=open,openat,creat,truncate,ftruncate,rename,renameat,renameat2,fsync,fdatasync", "-o", join(dir, "t"), ...cmd], {
      cwd: sb.repo,
      env: { ...sb.env, ...opts.env },
      input: opts.input,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`${verb} failed: ${r.stderr}`);
    const violations: string[] = [];
    let landings = 0;
    for (const f of readdirSync(dir)) {
      const lines = readFileSync(join(dir, f), "utf8").split("\n");
      const opened = new Map<number, { path: string; at: number }>();
      const synced = new Map<number, number>(); // fd → line of its last fsync
      const isRecord = (p: string) => p.endsWith("/session.json");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        const open = /^(?:open|openat)\((?:AT_FDCWD, )?"([^"]+)", ([A-Z_|]+)[^)]*\)\s+=\s+(\d+)/.exec(line);
        if (open) {
          const [, path, flags, fd] = open;
          if (isRecord(path!) && /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(flags!)) violations.push(`${f}: opened for writing: ${line}`);
          opened.set(Number(fd), { path: path!, at: i });
          synced.delete(Number(fd));
          continue;
        }
        if (/^creat\(|^truncate\(/.test(line) && line.includes("/session.json\"")) violations.push(`${f}: ${line}`);
        const sync = /^f(?:data)?sync\((\d+)\)\s+=\s+0/.exec(line);
        if (sync) {
          synced.set(Number(sync[1]), i);
          continue;
        }
        const ren = /^rename(?:at2?)?\((?:AT_FDCWD, )?"([^"]+)", (?:AT_FDCWD, )?"([^"]+)"/.exec(line);
        if (!ren || !isRecord(ren[2]!)) continue;
        const [, from, to] = ren;
        landings++;
        if (dirname(from!) !== dirname(to!)) violations.push(`${f}: renamed in from another folder: ${line}`);
        const temp = [...opened.entries()].find(([, o]) => o.path === from);
        if (!temp || !(synced.get(temp[0])! > temp[1].at)) violations.push(`${f}: the temp file was not fsynced before the rename: ${line}`);
        const rest = lines.slice(i + 1);
        const dirOpen = rest.map((l) => /^(?:open|openat)\((?:AT_FDCWD, )?"([^"]+)", [^)]*\)\s+=\s+(\d+)/.exec(l)).findIndex((m) => m && m[1] === dirname(to!));
        const dirFd = dirOpen >= 0 ? /=\s+(\d+)$/.exec(rest[dirOpen]!)?.[1] : undefined;
        if (!dirFd || !rest.slice(dirOpen + 1).some((l) => new RegExp(`^f(?:data)?sync\\(${dirFd}\\)\\s+=\\s+0`).test(l))) {
          violations.push(`${f}: the folder was not fsynced after the rename: ${line}`);
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
    return { verb, violations, landings };
  }

  test.skipIf(!straceWorks)(
    "every record write — create, rename, a note, a reparent, stop, archive, and the agent hook script — lands by temp file, fsync, rename and folder fsync; nothing opens session.json for writing",
    () => {
      const bin = SPEX_BIN;
      const created = traced("new", [bin, "session", "new", "--no-launch", "--launcher", "shell", "--json", "one writer"]);
      const id = seedRecord(sb.home, sb.repo, { prompt: "traced writes" }).session_id;
      const parent = seedRecord(sb.home, sb.repo, { prompt: "the parent" }).session_id;
      const hookEnv = { SPEX_RECORD: recordPath(id), SPEX_BIN: bin, SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: sb.repo, SPEX_HOME: sb.home };
      const runs = [
        created,
        traced("rename", [bin, "session", "rename", id, "renamed"]),
        traced("park", [bin, "session", "park", "--session", id, "--note-file", "-"], { input: 'a "quoted"\\ note\nwith lines\u0000 and -dashes' }),
        traced("state", [bin, "internal", "session-state", "idle", "--session", id]),
        traced("hook turn", ["/bin/sh", HOOK, "claude", "turn", "UserPromptSubmit"], { input: "{}", env: hookEnv }),
        traced("hook stop", ["/bin/sh", HOOK, "claude", "stop", "Stop"], { input: "{}", env: hookEnv }),
        traced("reparent", [bin, "session", "reparent", id, "--to", parent]),
        traced("done then", [bin, "session", "done", "--propose", "merge", "--then", "archive", "--session", id]),
        traced("stop", [bin, "session", "stop", id]),
        traced("archive", [bin, "session", "archive", id]),
      ];
      for (const run of runs) {
        expect({ verb: run.verb, violations: run.violations }).toEqual({ verb: run.verb, violations: [] });
        expect({ verb: run.verb, landed: run.landings > 0 }).toEqual({ verb: run.verb, landed: true });
      }
      expect(json(sb.spex(["session", "show", id, "--json"]).stdout)).toMatchObject({ name: "renamed", archived: true, stopped: true, parent });
    },
  );
});

describe("3. three readings", () => {
  test("every verb and every hook path refuses or passes over a corrupt record and leaves its bytes exactly as they were", () => {
    const c = seedRecord(sb.home, sb.repo, { prompt: "will be corrupt" }).session_id;
    const h = seedRecord(sb.home, sb.repo, { prompt: "healthy neighbour" }).session_id;
    const file = recordPath(c);
    writeFileSync(file, readFileSync(file).subarray(0, 120));
    const bytes = readFileSync(file);
    const agentEnv = { SPEX_SESSION_ID: c, SPEX_PROJECT_ROOT: sb.repo };
    // [what, argv, must it refuse (exit 1)?, options]
    const verbs: [string, string[], boolean, { env?: Record<string, string>; input?: string }?][] = [
      ["stop", ["session", "stop", c], true],
      ["close", ["session", "close", c], true],
      ["close --force", ["session", "close", c, "--force"], true],
      ["archive", ["session", "archive", c], true],
      ["archive --stop", ["session", "archive", c, "--stop"], true],
      ["resume", ["session", "resume", c], true],
      ["resume --force", ["session", "resume", c, "--force"], true],
      ["interrupt", ["session", "interrupt", c], true],
      ["rename", ["session", "rename", c, "x"], true],
      ["done --then", ["session", "done", "--propose", "close", "--then", "stop", "--session", c], true],
      ["send to it", ["session", "send", c, "hello"], true],
      ["send --from it", ["session", "send", h, "hello", "--from", c], true],
      ["send as it (SPEX_SESSION_ID)", ["session", "send", h, "hello again"], true, { env: agentEnv }],
      ["watch it", ["session", "watch", c, "--watcher", h], true],
      ["reparent it", ["session", "reparent", c, "--to", h], true],
      ["reparent under it", ["session", "reparent", h, "--to", c], true],
      ["reparent --detach", ["session", "reparent", c, "--detach"], true],
      ["watch cancel", ["session", "watch", "cancel", c, "--watcher", h], false],
      ["deliver", ["session", "deliver", c], false],
      ...["turn UserPromptSubmit", "tool PreToolUse", "stop Stop", "start SessionStart", "end SessionEnd", "fail StopFailure"].map(
        (e): [string, string[], boolean, { env: Record<string, string>; input: string }] => [`hook ${e}`, ["internal", "hook", "claude", ...e.split(" ")], false, { env: agentEnv, input: '{"session_id":"n"}' }],
      ),
      ["after-turn", ["internal", "after-turn", c], false],
    ];
    for (const [what, args, refuses, o] of verbs) {
      const r = sb.spex(args, o);
      if (refuses) expect({ what, code: r.code, corrupt: r.stderr.includes(file) }).toEqual({ what, code: 1, corrupt: true });
      expect({ what, unchanged: readFileSync(file).equals(bytes) }).toEqual({ what, unchanged: true });
    }
    const row = (json(sb.spex(["session", "ls", "--json"]).stdout) as any[]).find((x) => x.id === c);
    expect(row).toMatchObject({ kind: "corrupt", display: "corrupt", liveness: "unknown", file });
  });

  test("a retired record is never put back to active or idle: not by any hook, declaration, resume or send", () => {
    const rec = seedRecord(sb.home, sb.repo, { prompt: "retired", status: "parked", note: "parked for good", stopped: true, harness: "claude", launcher: "claude", harness_session_id: "n-1" });
    const id = rec.session_id;
    rmSync(rec.worktree_path, { recursive: true });
    const file = recordPath(id);
    const bytes = readFileSync(file);
    const env = { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: sb.repo };
    const attempts: [string, string[], { env?: Record<string, string>; input?: string }?][] = [
      ...["turn UserPromptSubmit", "tool PreToolUse", "stop Stop", "start SessionStart", "end SessionEnd", "ask PermissionRequest"].map(
        (e): [string, string[], { env: Record<string, string>; input: string }] => [`hook ${e}`, ["internal", "hook", "claude", ...e.split(" ")], { env, input: '{"session_id":"n-2"}' }],
      ),
      ["session-state active", ["internal", "session-state", "active", "--session", id]],
      ["session-state idle", ["internal", "session-state", "idle", "--session", id]],
      ["done", ["session", "done", "--propose", "merge", "--session", id]],
      ["park", ["session", "park", "--session", id, "--note", "again"]],
      ["resume", ["session", "resume", id]],
      ["resume --force", ["session", "resume", id, "--force"]],
      ["send to it", ["session", "send", id, "wake up"]],
      ["archive", ["session", "archive", id]],
    ];
    for (const [what, args, o] of attempts) {
      sb.spex(args, o);
      expect({ what, unchanged: readFileSync(file).equals(bytes) }).toEqual({ what, unchanged: true });
    }
    expect(readdirSync(sessionPaths(store(), id).dir)).not.toContain("launch.sh");
    expect(sb.tmux(["ls"]).stdout).not.toContain("retired");
    const shown = json(sb.spex(["session", "show", id, "--json"]).stdout);
    expect(shown).toMatchObject({ lifecycle: "parked", display: "retired", retired: true });
  });
});

describe("declarations outrank late lifecycle events (sessions-core: \"a declaration that landed first is authoritative\")", () => {
  // The agent declares through its own verb, then a hook the harness fires later must not undo it.
  const afterHook = (declare: string[], hook: string) => {
    const rec = seedRecord(sb.home, sb.repo, { prompt: "declared", status: "active" });
    expect(sb.spex(["session", ...declare, "--session", rec.session_id]).code).toBe(0);
    sb.spex(["internal", "hook", "claude", ...hook.split(" ")], { env: { SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: sb.repo }, input: '{"error":"late"}' });
    return json(sb.spex(["session", "show", rec.session_id, "--json"]).stdout);
  };
  test("an agent that parks itself stays parked when its turn's Stop hook fires", () => {
    expect(afterHook(["park", "--note", "need a decision"], "stop Stop")).toMatchObject({ lifecycle: "parked", note: "need a decision" });
  });
  test("an agent that asks stays asking through its tool's PostToolUse and the Stop", () => {
    const rec = seedRecord(sb.home, sb.repo, { prompt: "declared", status: "active" });
    const env = { SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: sb.repo };
    expect(sb.spex(["session", "ask", "--session", rec.session_id, "--note", "which db?"]).code).toBe(0);
    sb.spex(["internal", "hook", "claude", "tool", "PostToolUse"], { env, input: "{}" });
    sb.spex(["internal", "hook", "claude", "stop", "Stop"], { env, input: "{}" });
    expect(json(sb.spex(["session", "show", rec.session_id, "--json"]).stdout)).toMatchObject({ lifecycle: "asking", note: "which db?" });
    // A new turn (the human answered) ends the declaration.
    sb.spex(["internal", "hook", "claude", "turn", "UserPromptSubmit"], { env, input: "{}" });
    expect(json(sb.spex(["session", "show", rec.session_id, "--json"]).stdout)).toMatchObject({ lifecycle: "active", note: "" });
  });
  test("SessionEnd after a park records the stop and keeps the parked declaration", () => {
    expect(afterHook(["park", "--note", "need a decision"], "end SessionEnd")).toMatchObject({ lifecycle: "parked", record: { stopped: true } });
  });
  test("a late StopFailure does not overwrite a standing done --propose merge", () => {
    expect(afterHook(["done", "--propose", "merge", "--note", "ready"], "fail StopFailure")).toMatchObject({ lifecycle: "awaiting", note: "ready" });
  });
  test("a StopFailure during an undeclared active turn is an error", () => {
    const rec = seedRecord(sb.home, sb.repo, { prompt: "undeclared", status: "active" });
    sb.spex(["internal", "hook", "claude", "fail", "StopFailure"], { env: { SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: sb.repo }, input: '{"error":"rate limited"}' });
    expect(json(sb.spex(["session", "show", rec.session_id, "--json"]).stdout)).toMatchObject({ lifecycle: "error", note: "rate limited" });
  });
});

describe("4. exclusion lives in the lock", () => {
  test("send --from takes both record locks in sorted order: while the later one is held elsewhere, the send already holds the earlier", async () => {
    const earlier = seedRecord(sb.home, sb.repo, { session_id: "10000000-0000-4000-8000-00000000000a", prompt: "earlier sender" }).session_id;
    const later = seedRecord(sb.home, sb.repo, { session_id: "f0000000-0000-4000-8000-00000000000b", prompt: "later target" }).session_id;
    const held = await acquireLock(recordLockPath(store(), later), { purpose: "held by the test" });
    const child = spawn(SPEX_BIN, ["session", "send", later, "ordered", "--from", earlier, "--queue-only", "--json"], { cwd: sb.repo, env: sb.env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await waitFor(() => lockHolder(recordLockPath(store(), earlier))?.pid === child.pid, "the send to hold the earlier lock while it waits for the later", 8000);
    } finally {
      await held.release();
    }
    expect(await exited).toBe(0);
    expect(json(out)).toMatchObject({ target: later, state: "queued" });
  });
});

describe("5. dead leaf vs unprovable leaf", () => {
  test("stop, close, archive --stop and resume --force all refuse a live pid of another identity, signal nothing and change nothing", () => {
    const s = seedLive(sb, { agent: "other" });
    try {
      const bytes = readFileSync(recordPath(s.id));
      for (const args of [["stop"], ["close"], ["close", "--force"], ["archive", "--stop"], ["resume", "--force"]]) {
        const r = sb.spex(["session", args[0]!, s.id, ...args.slice(1), "--json"]);
        expect({ args, code: r.code, error: json(r.stdout).error?.code }).toEqual({ args, code: 1, error: "leaf_unprovable" });
        expect(alive(s.pid)).toBe(true);
        expect(hasTmux(sb, s.tmuxName)).toBe(true);
        expect(existsSync(s.worktree)).toBe(true);
        expect(readFileSync(recordPath(s.id)).equals(bytes)).toBe(true);
      }
    } finally {
      s.stranger?.kill("SIGKILL");
    }
  });

  test("a pid that names no live process is already stopped: stop and archive --stop proceed record-only", () => {
    for (const verb of [["stop"], ["archive", "--stop"]]) {
      const s = seedLive(sb, { agent: "dead" });
      const r = sb.spex(["session", verb[0]!, s.id, ...verb.slice(1), "--json"]);
      expect({ verb, code: r.code, stderr: r.stderr }).toEqual({ verb, code: 0, stderr: "" });
      expect(json(sb.spex(["session", "show", s.id, "--json"]).stdout).record.stopped).toBe(true);
      expect(hasTmux(sb, s.tmuxName)).toBe(false);
    }
  });
});

describe("6. refuse before mutating", () => {
  /** Every file of a folder with a hash of its bytes (or its link target): the whole observable state. */
  function tree(root: string): Record<string, string> {
    const out: Record<string, string> = {};
    if (!existsSync(root)) return out;
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        const st = lstatSync(p);
        if (st.isDirectory()) {
          out[relative(root, p) + "/"] = "";
          walk(p);
        } else out[relative(root, p)] = createHash("sha1").update(readFileSync(p)).digest("hex");
      }
    };
    walk(root);
    return out;
  }

  test("in a fresh repository, a base that names no commit and a launcher with no program change nothing at all: no store, receipt, hook, exclude line, worktree or branch", () => {
    const fresh = sandbox();
    try {
      writeFileSync(join(fresh.repo, "spexcode.json"), JSON.stringify({ launchers: { ghost: { harness: "shell", command: "no-such-program-xyz" } } }));
      fresh.git(["add", "spexcode.json"]);
      fresh.git(["commit", "-q", "-m", "config"]);
      const before = { git: tree(join(fresh.repo, ".git")), work: tree(fresh.repo), home: tree(fresh.home) };
      for (const [args, code] of [
        [["--launcher", "shell", "--base", "no-such-ref"], "base_unresolvable"],
        [["--launcher", "shell", "--base", "0000000000000000000000000000000000000000"], "base_unresolvable"],
        [["--launcher", "ghost"], "launcher_unresolvable"],
      ] as const) {
        for (const launch of [[], ["--no-launch"]]) {
          const r = fresh.spex(["session", "new", ...args, ...launch, "--json", "a task"]);
          expect({ args, code: r.code, error: json(r.stdout).error?.code }).toEqual({ args, code: 1, error: code });
          expect({ git: tree(join(fresh.repo, ".git")), work: tree(fresh.repo), home: tree(fresh.home) }).toEqual(before);
        }
      }
      expect(fresh.tmux(["ls"]).status).not.toBe(0);
    } finally {
      fresh.cleanup();
    }
  });

  test("a launch the machine can already settle is refused before a window opens: worktree gone, branch gone, pinned program gone", () => {
    const agent = argvLogger(sb, "pinned-agent");
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { pinned: { harness: "shell", command: agent.path } } }));
    const make = (p: string) => json(sb.spex(["session", "new", "--no-launch", "--launcher", "pinned", "--json", p]).stdout);
    const noWorktree = make("worktree will go");
    const noBranch = make("branch will go");
    const noProgram = make("program will go");
    rmSync(join(sb.repo, "spexcode.local.json"));
    sb.git(["worktree", "remove", "--force", noWorktree.worktree_path]);
    sb.git(["update-ref", "-d", `refs/heads/${noBranch.branch}`]);
    rmSync(agent.path);
    for (const [c, code] of [[noWorktree, "record_retired"], [noBranch, "branch_missing"], [noProgram, "launcher_unresolvable"]] as const) {
      const bytes = readFileSync(recordPath(c.session_id));
      const r = sb.spex(["session", "resume", c.session_id, "--json"], { env: { SPEX_READY_TIMEOUT_MS: "5000" } });
      expect({ prompt: c.title, code: r.code, error: json(r.stdout).error?.code }).toEqual({ prompt: c.title, code: 1, error: code });
      expect(hasTmux(sb, c.tmux_session)).toBe(false);
      expect(readFileSync(recordPath(c.session_id)).equals(bytes)).toBe(true);
      expect(existsSync(sessionPaths(store(), c.session_id).launch)).toBe(false);
    }
    expect(agent.calls()).toEqual([]);
  });
});

describe("7. the prompt seam", () => {
  test("a launch hands every harness-agnostic prompt over as one operand: a leading '-' gets one space, a leading space is kept, the rest byte for byte", async () => {
    const agent = argvLogger(sb, "seam-agent");
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 }, launchers: { seam: { harness: "shell", command: agent.path } } }));
    try {
      const prompts = ["-rf --resume", "--continue", " -already spaced", "  --two spaces", "\t-tab", "- ", "plain 'single' \"double\" $(not run) `nor this` \\ \n second line"];
      const sessions = new Map<string, string>();
      for (const prompt of prompts) {
        const r = sb.spex(["session", "new", "--launcher", "seam", "--json", "--prompt-file", "-"], { input: prompt });
        expect({ prompt, stderr: r.stderr, code: r.code }).toEqual({ prompt, stderr: "", code: 0 });
        const id = json(r.stdout).session_id;
        expect(readFileSync(sessionPaths(store(), id).prompt, "utf8")).toBe(prompt);
        sessions.set(id, prompt);
      }
      // Agents start in whatever order the machine runs them: compare each session's own argv.
      const calls = await waitFor(() => agent.bySession().size === prompts.length && agent.bySession(), "every launch to log its argv");
      const want = [...sessions].map(([id, p]) => [id, [p.startsWith("-") ? ` ${p}` : p]]);
      expect([...sessions.keys()].map((id) => [id, calls.get(id)])).toEqual(want);
    } finally {
      rmSync(join(sb.repo, "spexcode.local.json"), { force: true });
    }
  });

  test("a send types the user's text behind the same seam, once: '-' gains one space, an existing leading space is not doubled", async () => {
    const agent = await startFakeAgent(sb);
    const texts = ["-rf now", " -already spaced", "  --two spaces", "--", "plain"];
    for (const text of texts) {
      const r = sb.spex(["session", "send", "--json", agent.id, "--", text]);
      expect({ text, code: r.code }).toEqual({ text, code: 0 });
      await waitFor(() => agent.received().length === texts.indexOf(text) + 1, `delivery of ${JSON.stringify(text)}`);
    }
    expect(agent.received()).toEqual(texts.map((t) => (t.startsWith("-") ? ` ${t}` : t)));
  });
});

describe("8. names are the session's own", () => {
  test("there is no --node: the flag is a usage error and nothing is made", () => {
    const before = sb.git(["branch", "--list"]);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--node", "auth", "a task"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[usage]");
    expect(sb.git(["branch", "--list"])).toBe(before);
  });

  test("--name and rename set only the display name: node, title, branch, worktree and prompt keep their own", () => {
    const prompt = "fix the [[login-page]] for @someone";
    const c = json(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--name", "Night Shift", "--json", prompt]).stdout);
    expect(c).toMatchObject({ name: "Night Shift", node: "login-page", title: "fix the login-page for" });
    const identity = (r: any) => ({ node: r.node, title: r.title, branch: r.branch, worktree_path: r.worktree_path, session_id: r.session_id });
    expect(sb.spex(["session", "rename", c.session_id, "[[other]] @x 3f2a9c1e-1111-4222-8333-444455556666"]).code).toBe(0);
    const after = json(sb.spex(["session", "show", c.session_id, "--json"]).stdout);
    expect(identity(after.record)).toEqual(identity(c));
    expect(after.record.name).toBe("[[other]] @x 3f2a9c1e-1111-4222-8333-444455556666");
    expect(after.prompt).toBe(prompt);
    expect(c.branch).toBe(`spex/login-page-${c.session_id.slice(0, 4)}`);
  });
});

describe("9. lists stay proportional to the number of sessions", () => {
  test("a 100 KiB prompt and a short one with the same opening make ls rows of the same size; show serves the whole prompt", () => {
    const opening = "Refactor the session layer. ".repeat(5);
    // A launcher that takes the prompt as its argument (an interactive shell would type it, and refuses one this long);
    // an argument holds about 128 KiB (prompt_too_large past that), so the long prompt stays under it.
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { arg: { harness: "shell", command: "sh -c 'exec sh' run" } } }));
    const short = json(sb.spex(["session", "new", "--no-launch", "--launcher", "arg", "--json", "--prompt-file", "-"], { input: opening }).stdout);
    const long = json(sb.spex(["session", "new", "--no-launch", "--launcher", "arg", "--json", "--prompt-file", "-"], { input: opening + "x".repeat(100 * 1024) }).stdout);
    const rows = json(sb.spex(["session", "ls", short.session_id, long.session_id, "--json"]).stdout) as any[];
    const shape = (r: any) => JSON.stringify({ ...r, id: "", shortId: "", worktree: "", branch: "", tmuxSession: "", createdAt: "", updatedAt: "" });
    const [a, b] = [rows.find((r) => r.id === short.session_id), rows.find((r) => r.id === long.session_id)];
    expect(shape(b).length).toBe(shape(a).length);
    expect(b.preview).toBe(a.preview);
    const human = sb.spex(["session", "ls", short.session_id, long.session_id]).stdout;
    expect(human.length).toBeLessThan(2000);
    expect(json(sb.spex(["session", "show", long.session_id, "--json"]).stdout).prompt.length).toBe(opening.length + 100 * 1024);
    // A long note (agent prose, up to the 16,384 characters a note may hold) is previewed in the row too; show keeps it whole.
    const note = "n".repeat(16_384);
    expect(sb.spex(["session", "park", "--session", long.session_id, "--note-file", "-"], { input: note }).code).toBe(0);
    const parked = (json(sb.spex(["session", "ls", long.session_id, "--json"]).stdout) as any[])[0];
    expect(JSON.stringify(parked).length).toBeLessThan(shape(b).length + 1000);
    expect(json(sb.spex(["session", "show", long.session_id, "--json"]).stdout).note).toBe(note);
  });
});

describe("watchers: reparent changes only the parent source", () => {
  test("detaching a child from a parent that also watches it by hand keeps the manual watch and its waiting notice", () => {
    const parent = seedRecord(sb.home, sb.repo, { prompt: "busy orchestrator", status: "active", harness: "" }).session_id;
    const child = json(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--parent", parent, "--json", "a supervised child"]).stdout).session_id as string;
    expect(sb.spex(["session", "watch", child, "--watcher", parent]).code).toBe(0);
    expect(sb.spex(["internal", "session-state", "active", "--session", child, "--new-turn"]).code).toBe(0);
    expect(sb.spex(["internal", "session-state", "parked", "--session", child, "--note", "blocked"]).code).toBe(0);
    const waiting = () => listPending(store(), parent).filter((m) => m.from.kind === "watch").map((m) => m.state);
    expect(waiting()).toEqual(["queued"]);
    const out = json(sb.spex(["session", "reparent", child, "--detach", "--json"]).stdout);
    expect(out).toEqual([{ id: child, from: parent, to: "", changed: true, notified: false }]);
    expect(json(sb.spex(["session", "watch", "list", child, "--json"]).stdout)).toEqual([expect.objectContaining({ watched: child, watcher: parent, sources: ["manual"] })]);
    expect(waiting()).toEqual(["queued"]);
    // And cancelling the manual watch leaves nothing, dropping the notice with it.
    expect(sb.spex(["session", "watch", "cancel", child, "--watcher", parent]).code).toBe(0);
    expect(json(sb.spex(["session", "watch", "list", child, "--json"]).stdout)).toEqual([]);
    expect(waiting()).toEqual([]);
  });
});

describe("11. exactly-once handover: a closed sender is revoked", () => {
  test("a send that resolved its sender before close ran is refused once close returns, and appends nothing", async () => {
    // The target's lock sorts first, so the stale send waits there holding nothing while close runs.
    const target = seedRecord(sb.home, sb.repo, { session_id: "00000000-0000-4000-8000-0000000000c1", prompt: "stale target" }).session_id;
    const worktree = join(sb.repo, ".worktrees", "stale-sender");
    sb.git(["worktree", "add", "-q", "-b", "spex/stale-sender", worktree, "main"]);
    const sender = seedRecord(sb.home, sb.repo, { session_id: "ffffffff-0000-4000-8000-0000000000c2", prompt: "stale sender", worktree_path: worktree, branch: "spex/stale-sender" }).session_id;
    const held = await acquireLock(recordLockPath(store(), target), { purpose: "held by the test" });
    const stale = sendMessage(store(), { target, from: { kind: "session", id: sender }, text: "from beyond", keys: [], deliver: false }).then(
      () => "appended",
      (e: unknown) => (e instanceof SpexError ? e.code : String(e)),
    );
    try {
      const closed = await closeSession(store(), sender);
      expect(closed).toMatchObject({ senderRevoked: true });
    } finally {
      await held.release();
    }
    expect(await stale).toBe("sender_revoked");
    expect(existsSync(sessionPaths(store(), target).timeline)).toBe(false);
    const after = sb.spex(["session", "send", target, "again", "--from", sender, "--json"]);
    expect(json(after.stdout).error.code).toBe("sender_revoked");
  });
});
