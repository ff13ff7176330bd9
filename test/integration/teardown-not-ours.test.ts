// Never touch what is not ours (issue 10, items 4, 13, 14 and 15), each rule
// tested as the attack that broke it: close deleting ignored files, a late
// failure hook reviving a stopped record, a process of a stopped session left
// running, doctor calling another project's sessions orphans.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { alive, branchExists, hasTmux, json, recordFile, seedLive } from "../support/teardown";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const close = (sel: string, ...flags: string[]) => sb.spex(["session", "close", sel, ...flags, "--json"]);

describe("close and ignored files", () => {
  test("close without --force refuses over ignored files (info/exclude, a nested .worktrees folder), lists them and changes nothing; --force lists them as discarded; spex's own rendered files are not work", () => {
    const s = seedLive(sb, { agent: "owned", harness: "claude" });
    appendFileSync(join(sb.repo, ".git", "info", "exclude"), "/.worktrees/\n.env.local\nbuild/\n.claude/\n");
    writeFileSync(join(s.worktree, ".env.local"), "SECRET=1\n");
    mkdirSync(join(s.worktree, "build", "deep"), { recursive: true });
    writeFileSync(join(s.worktree, "build", "deep", "out.bin"), "x");
    // What spex itself renders into a worktree (here ignored through `.claude/`) is spex's, not work.
    mkdirSync(join(s.worktree, ".claude"));
    writeFileSync(join(s.worktree, ".claude", "settings.local.json"), "{}\n");
    writeFileSync(join(s.worktree, "spexcode.local.json"), "{}\n");
    // The `/.worktrees/` exclude spex adds also matches a folder of that name inside the session's worktree.
    mkdirSync(join(s.worktree, ".worktrees", "nested"), { recursive: true });
    writeFileSync(join(s.worktree, ".worktrees", "nested", "work.txt"), "nested work\n");
    const before = readFileSync(recordFile(sb, s.id));

    const refused = close(s.id);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error).toMatchObject({ code: "worktree_dirty", files: ["!! .env.local", "!! .worktrees/", "!! build/"] });
    expect(refused.stderr).toContain(".env.local");
    expect(readFileSync(join(s.worktree, ".env.local"), "utf8")).toBe("SECRET=1\n");
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
    expect(readFileSync(recordFile(sb, s.id))).toEqual(before);

    const forced = close(s.id, "--force");
    expect(forced.code).toBe(0);
    expect(json(forced.stdout)).toMatchObject({ forced: true, worktree: "removed", discarded: { files: ["!! .env.local", "!! .worktrees/", "!! build/"] } });
    expect(existsSync(s.worktree)).toBe(false);
    expect(branchExists(sb, s.branch)).toBe(false);
  });

  test("a worktree holding only what spex rendered (hook config and the local config copy, ignored or untracked) closes without --force", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false, harness: "codex" });
    appendFileSync(join(sb.repo, ".git", "info", "exclude"), "/.codex/hooks.json\nspexcode.local.json\n");
    mkdirSync(join(s.worktree, ".codex"));
    writeFileSync(join(s.worktree, ".codex", "hooks.json"), "{}\n");
    writeFileSync(join(s.worktree, "spexcode.local.json"), "{}\n");
    const r = close(s.id);
    expect(r.stderr).toBe("");
    expect(json(r.stdout)).toMatchObject({ worktree: "removed", discarded: { files: [] } });
  });
});
