// Parsers teardown relies on: git porcelain, agent.pid, and the names a
// corrupt record's bytes seem to hold.
import { describe, expect, test } from "bun:test";
import { candidateNames, parseAgentPid } from "../../lib/teardown";
import { parseStatusEntries, parseWorktreeList } from "../../lib/teardown/git";

describe("candidateNames", () => {
  const full = JSON.stringify(
    { session_id: "x", worktree_path: "/r/.worktrees/修复-3f2a", branch: "spex/修复-3f2a", tmux_socket: "spex", tmux_session: "修复-3f2a", agent_pid: "4242", note: 'say "hi"\n' },
    null,
    2,
  );

  test("reads names out of a record cut off half-way, dropping the value the cut went through", () => {
    const cut = full.slice(0, full.indexOf("spex/") + 3);
    expect(candidateNames(cut)).toEqual({ worktree_path: "/r/.worktrees/修复-3f2a" });
  });

  test("reads every field of an otherwise unparseable record, unicode and escapes included", () => {
    const broken = full.replace('"session_id": "x",', '"session_id": "x",,');
    expect(candidateNames(broken)).toEqual({
      worktree_path: "/r/.worktrees/修复-3f2a",
      branch: "spex/修复-3f2a",
      tmux_socket: "spex",
      tmux_session: "修复-3f2a",
      agent_pid: "4242",
    });
    expect(candidateNames('{"branch": "a\\"b"}')).toEqual({ branch: 'a"b' });
  });

  test("garbage yields no names", () => {
    expect(candidateNames("\u0000\u0001 not json")).toEqual({});
  });
});

describe("parseAgentPid", () => {
  test("reads pid and start, tolerating a torn file", () => {
    expect(parseAgentPid("123 456\n")).toEqual({ pid: 123, start: "456" });
    expect(parseAgentPid("123")).toEqual({ pid: 123, start: "" });
    expect(parseAgentPid("")).toBeUndefined();
    expect(parseAgentPid("x y")).toBeUndefined();
  });
});

describe("git porcelain", () => {
  test("worktree list -z: the main checkout first, branches, detached heads and prunable entries", () => {
    const text =
      "worktree /repo\0HEAD aaa\0branch refs/heads/main\0\0" +
      "worktree /repo/.worktrees/a b\0HEAD bbb\0branch refs/heads/spex/a\0locked\0\0" +
      "worktree /gone\0HEAD ccc\0detached\0prunable gitdir file points to non-existent location\0\0" +
      "worktree /half\0HEAD 0000000000000000000000000000000000000000\0detached\0locked initializing\0\0";
    expect(parseWorktreeList(text)).toEqual([
      { path: "/repo", head: "aaa", branch: "refs/heads/main", bare: false, locked: false, lockReason: "", prunable: false },
      { path: "/repo/.worktrees/a b", head: "bbb", branch: "refs/heads/spex/a", bare: false, locked: true, lockReason: "", prunable: false },
      { path: "/gone", head: "ccc", branch: "", bare: false, locked: false, lockReason: "", prunable: true },
      // A `worktree add` git has not finished: its own lock, no HEAD yet.
      { path: "/half", head: "0000000000000000000000000000000000000000", branch: "", bare: false, locked: true, lockReason: "initializing", prunable: false },
    ]);
  });

  test("status -z: renames carry their source, paths keep spaces", () => {
    expect(parseStatusEntries(" M a file.txt\0R  new.txt\0old.txt\0?? x\0")).toEqual([
      { status: " M", path: "a file.txt" },
      { status: "R ", path: "old.txt -> new.txt" },
      { status: "??", path: "x" },
    ]);
  });
});
