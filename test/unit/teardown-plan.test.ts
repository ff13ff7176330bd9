// The close refusal rules, decided from facts alone (no git, no tmux).
import { describe, expect, test } from "bun:test";
import { type CloseFacts, planClose } from "../../lib/teardown";
import { isSpexError } from "../../lib/errors";

const ID = "3f2a9c1e-0000-4000-8000-000000000000";

function facts(over: Partial<CloseFacts> = {}): CloseFacts {
  return {
    worktreePath: "/repo/.worktrees/task-3f2a",
    branch: "spex/task-3f2a",
    retired: false,
    worktreeRegistered: true,
    worktreeLocked: false,
    changes: [],
    branchExists: true,
    branchCheckedOutAt: [],
    unmerged: { commits: [], more: false },
    mainRef: "refs/heads/main",
    ...over,
  };
}

function refusal(f: CloseFacts, force = false): string {
  try {
    planClose(ID, f, force);
  } catch (e) {
    if (isSpexError(e)) return e.code;
    throw e;
  }
  return "none";
}

const dirty = { changes: [{ status: " M", path: "src/a.ts" }] };
const unmerged = { unmerged: { commits: [{ sha: "abc1234", subject: "wip" }], more: false } };

describe("planClose", () => {
  test("a clean, merged session removes the worktree and deletes the branch", () => {
    expect(planClose(ID, facts(), false)).toEqual({ worktree: "remove", branch: "delete", discards: { files: [], commits: [], moreCommits: false } });
  });

  test("uncommitted changes refuse worktree_dirty unless forced, and a forced close lists them as discarded", () => {
    expect(refusal(facts(dirty))).toBe("worktree_dirty");
    expect(planClose(ID, facts(dirty), true).discards.files).toEqual([" M src/a.ts"]);
  });

  test("commits missing from the main branch refuse branch_unmerged unless forced", () => {
    expect(refusal(facts(unmerged))).toBe("branch_unmerged");
    expect(planClose(ID, facts({ ...unmerged, unmerged: { ...unmerged.unmerged, more: true } }), true).discards).toMatchObject({ commits: [{ sha: "abc1234" }], moreCommits: true });
  });

  test("the dirty refusal comes first, so the caller sees the files before the commits", () => {
    expect(refusal(facts({ ...dirty, ...unmerged }))).toBe("worktree_dirty");
  });

  test("a retired record closes record-only: a stale entry is pruned, an unmerged branch is kept, a merged one deleted", () => {
    expect(planClose(ID, facts({ retired: true, ...unmerged }), false)).toMatchObject({ worktree: "prune", branch: "keep" });
    expect(planClose(ID, facts({ retired: true, worktreeRegistered: false }), false)).toMatchObject({ worktree: "absent", branch: "delete" });
    expect(planClose(ID, facts({ retired: true, ...unmerged }), true)).toMatchObject({ branch: "delete" });
  });

  test("a retired record's leftover changes are not reported (there is no worktree to hold them)", () => {
    expect(planClose(ID, facts({ retired: true, ...dirty }), false).discards.files).toEqual([]);
  });

  test("a folder git does not list as a worktree is never deleted, even forced", () => {
    expect(refusal(facts({ worktreeRegistered: false }), true)).toBe("worktree_unregistered");
  });

  test("a locked worktree refuses worktree_locked unless forced", () => {
    expect(refusal(facts({ worktreeLocked: true }))).toBe("worktree_locked");
    expect(planClose(ID, facts({ worktreeLocked: true }), true).worktree).toBe("remove");
  });

  test("a branch checked out elsewhere refuses only when close would delete it", () => {
    const held = { branchCheckedOutAt: ["/repo"] };
    expect(refusal(facts(held))).toBe("branch_checked_out");
    expect(planClose(ID, facts({ ...held, retired: true, ...unmerged }), false).branch).toBe("keep");
  });

  test("a missing branch and an empty worktree path are simply absent", () => {
    expect(planClose(ID, facts({ branchExists: false, worktreePath: "", worktreeRegistered: false }), false)).toMatchObject({ worktree: "absent", branch: "absent" });
  });
});
