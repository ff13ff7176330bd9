// quarantine (DESIGN.md §6): re-prove every claimed absence at execution time,
// then move only session.json, byte exact, with the claim and the proof.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectStore } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { type LiveSession, json, recordFile, seedLive, sessionDir, startStranger } from "../support/teardown";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const claimOf = (s: LiveSession, extra: string[] = []) => ["--adapter", "shell", "--tmux", s.tmuxName, "--worktree", s.worktree, "--branch", s.branch, ...extra];
const quarantine = (id: string, args: string[]) => sb.spex(["session", "quarantine", id, ...args, "--json"]);
const lsIds = () => json<{ id: string }[]>(sb.spex(["session", "ls", "--all", "--json"]).stdout).map((r) => r.id);

/** Truncate the record mid-way, as a crashed foreign writer would leave it. */
function truncate(sb: Sandbox, id: string): Buffer<ArrayBuffer> {
  const file = recordFile(sb, id);
  const bytes = readFileSync(file);
  const cut = Buffer.from(bytes.subarray(0, Math.floor(bytes.length / 2)));
  writeFileSync(file, cut);
  return cut;
}

/** Remove worktree and branch as a human recovering by hand would. */
function removeWorktreeAndBranch(s: LiveSession): void {
  sb.git(["worktree", "remove", "--force", s.worktree]);
  sb.git(["branch", "-D", s.branch]);
}

describe("quarantine", () => {
  test("a truncated record is refused while its tmux session exists, then quarantined byte exact, restored identically, and a second restore refuses", () => {
    const s = seedLive(sb, { agent: "dead" });
    const bytes = truncate(sb, s.id);
    removeWorktreeAndBranch(s);
    expect(lsIds()).toEqual([s.id]);

    const refused = quarantine(s.id, claimOf(s));
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error).toMatchObject({ code: "tmux_present", tmuxSession: s.tmuxName });
    expect(refused.stderr).toContain("nothing was moved");
    expect(readFileSync(recordFile(sb, s.id))).toEqual(bytes);
    expect(existsSync(projectStore(sb.repo, sb.home).quarantineDir)).toBe(false);

    sb.tmux(["kill-session", "-t", `=${s.tmuxName}`]);
    const done = quarantine(s.id, claimOf(s));
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    const result = json(done.stdout);
    expect(result).toMatchObject({ quarantined: true, bytes: bytes.length });
    expect(readFileSync(join(result.bundle, "session.json"))).toEqual(bytes);
    const claim = json(readFileSync(join(result.bundle, "claim.json"), "utf8"));
    expect(claim).toMatchObject({
      sessionId: s.id,
      claim: { adapter: "shell", thread: "", tmux: s.tmuxName, worktree: s.worktree, branch: s.branch },
      proof: { tmux: { present: false }, worktree: { present: false }, branch: { present: false }, adapter: { known: true }, record: { kind: "corrupt" } },
    });
    expect(existsSync(recordFile(sb, s.id))).toBe(false);
    expect(existsSync(join(sessionDir(sb, s.id), "prompt"))).toBe(true);
    expect(lsIds()).toEqual([]);

    const restored = quarantine(s.id, ["--restore"]);
    expect(restored.code).toBe(0);
    expect(readFileSync(recordFile(sb, s.id))).toEqual(bytes);
    const rows = json(sb.spex(["session", "ls", "--all", "--json"]).stdout);
    expect(rows).toMatchObject([{ id: s.id, kind: "corrupt", display: "corrupt" }]);

    const again = quarantine(s.id, ["--restore"]);
    expect(again.code).toBe(1);
    expect(json(again.stdout).error.code).toBe("record_present");
    expect(readFileSync(recordFile(sb, s.id))).toEqual(bytes);
  });

  test("each claimed resource that still exists refuses with its own code and moves nothing", () => {
    const s = seedLive(sb, { agent: "none", tmux: false });
    const bytes = truncate(sb, s.id);
    const codeOf = (args: string[]) => json(quarantine(s.id, args).stdout).error?.code;

    expect(codeOf(claimOf(s))).toBe("worktree_present");
    sb.git(["worktree", "remove", "--force", s.worktree]);
    expect(codeOf(claimOf(s))).toBe("branch_present");
    sb.git(["branch", "-D", s.branch]);
    expect(codeOf(["--adapter", "vim", "--tmux", s.tmuxName, "--worktree", s.worktree, "--branch", s.branch])).toBe("adapter_unknown");

    const holder = startStranger();
    const leaf = startStranger();
    try {
      writeFileSync(join(sessionDir(sb, s.id), "agent.pid"), `${leaf.pid} 1\n`);
      expect(codeOf(claimOf(s))).toBe("leaf_present");
      rmSync(join(sessionDir(sb, s.id), "agent.pid"));
      // A live process naming the native thread on its command line holds it: `sleep 1000` names "1000".
      expect(codeOf(claimOf(s, ["--thread", "1000"]))).toBe("thread_live");
    } finally {
      holder.kill("SIGKILL");
      leaf.kill("SIGKILL");
    }
    expect(readFileSync(recordFile(sb, s.id))).toEqual(bytes);
    expect(existsSync(projectStore(sb.repo, sb.home).quarantineDir)).toBe(false);
    expect(quarantine(s.id, claimOf(s)).code).toBe(0);
  });

  test("--thread takes the adapter's own conversation id: a spex session id is thread_invalid, and a live process naming the thread inside a longer argument holds it (issue 21 item 11)", () => {
    const s = seedLive(sb, { agent: "none", tmux: false });
    const other = seedLive(sb, { agent: "none", tmux: false });
    const bytes = truncate(sb, s.id);
    removeWorktreeAndBranch(s);
    const refusal = (args: string[]) => {
      const r = quarantine(s.id, claimOf(s, args));
      return [r.code, json(r.stdout).error?.code];
    };
    expect(refusal(["--thread", s.id])).toEqual([2, "thread_invalid"]);
    expect(refusal(["--thread", other.id])).toEqual([2, "thread_invalid"]);

    const thread = "019a7f3e-5c1d-7b2a-9e44-0a1b2c3d4e5f";
    // A wrapper whose argv holds the id inside one longer argument, as `sh -c '… --resume <id> …'` does.
    const wrapped = spawn("sh", ["-c", `sleep 1000; : codex resume --thread=${thread} --yolo`], { stdio: "ignore", detached: true });
    try {
      expect(refusal(["--thread", thread])).toEqual([1, "thread_live"]);
    } finally {
      process.kill(-wrapped.pid!, "SIGKILL");
    }
    // The id glued into a longer id is not it.
    const longer = spawn("sh", ["-c", `sleep 1000; : ${thread}0`], { stdio: "ignore", detached: true });
    try {
      expect(quarantine(s.id, claimOf(s, ["--thread", thread])).code).toBe(0);
    } finally {
      process.kill(-longer.pid!, "SIGKILL");
    }
    expect(lsIds()).toEqual([other.id]);
    quarantine(s.id, ["--restore"]);
    expect(readFileSync(recordFile(sb, s.id))).toEqual(bytes);
  });

  test("an adapter whose program does not resolve here is not healthy: adapter_unhealthy, nothing moved; once it resolves the proof names it", () => {
    const s = seedLive(sb, { agent: "none", tmux: false });
    const bytes = truncate(sb, s.id);
    removeWorktreeAndBranch(s);
    const codexClaim = ["--adapter", "codex", "--tmux", s.tmuxName, "--worktree", s.worktree, "--branch", s.branch];
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { codex: { harness: "codex", command: "/nonexistent/codex-gone --no-daemon" } } }));
    const refused = quarantine(s.id, codexClaim);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error).toMatchObject({ code: "adapter_unhealthy", adapter: "codex", program: "/nonexistent/codex-gone" });
    expect(refused.stderr).toContain("nothing was moved");
    expect(readFileSync(recordFile(sb, s.id))).toEqual(bytes);
    expect(existsSync(projectStore(sb.repo, sb.home).quarantineDir)).toBe(false);

    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { codex: { harness: "codex", command: "sh -c true" } } }));
    const done = quarantine(s.id, codexClaim);
    expect(done.code).toBe(0);
    expect(json(done.stdout).proof.adapter).toMatchObject({ name: "codex", known: true, program: "sh" });
    expect(json(done.stdout).proof.adapter.executable).toEndWith("/sh");
  });

  test("a readable record is not quarantined: close or stop is its way out", () => {
    const s = seedLive(sb, { agent: "none", tmux: false });
    sb.git(["worktree", "remove", "--force", s.worktree]);
    sb.git(["branch", "-D", s.branch]);
    const r = quarantine(s.id, claimOf(s));
    expect(json(r.stdout).error.code).toBe("record_readable");
    expect(existsSync(recordFile(sb, s.id))).toBe(true);
  });

  test("quarantine without the full claim is a usage error", () => {
    const r = sb.spex(["session", "quarantine", "0a1b2c3d", "--adapter", "shell"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--tmux, --worktree, --branch");
  });

  test("restore with nothing quarantined refuses quarantine_empty", () => {
    const r = quarantine("0a1b2c3d-0000-4000-8000-000000000000", ["--restore"]);
    expect(json(r.stdout).error.code).toBe("quarantine_empty");
  });

  test("the command its tmux refusal gives, pasted, ends exactly that tmux session whatever its name, and runs nothing else", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false });
    truncate(sb, s.id);
    removeWorktreeAndBranch(s);
    // A tmux session whose name is shell code (-s is expanded as a format: # as ##).
    const name = "x'; touch pwned; echo '#";
    expect(sb.tmux(["new-session", "-d", "-s", name.replace(/#/g, "##"), "sleep 600"]).status).toBe(0);
    const refused = sb.spex(["session", "quarantine", s.id, "--adapter", "shell", "--tmux", name, "--worktree", s.worktree, "--branch", s.branch]);
    expect(refused.stderr).toContain("[tmux_present]");
    const command = /end it first \((.*)\) once you are sure/.exec(refused.stderr)?.[1];
    expect(command).toBeDefined();
    const ran = spawnSync("sh", ["-c", command!], { cwd: sb.dir, env: sb.env, encoding: "utf8" });
    expect({ code: ran.status, stderr: ran.stderr }).toEqual({ code: 0, stderr: "" });
    expect(existsSync(join(sb.dir, "pwned"))).toBe(false);
    expect(sb.tmux(["has-session", "-t", `=${name}`]).status).not.toBe(0);
  });
});
