// The sandbox's pure parts (lib/workspace/sandbox.ts): bwrap's mounts in the
// order that makes them right, and macOS refused with a code.
import { describe, expect, test } from "bun:test";
import { SpexError } from "../../lib/errors";
import { bwrapArgs, refuseUnsandboxable, sandboxCheck } from "../../lib/workspace/sandbox";

const plan = {
  worktree: "/tmp/t/repo/.worktrees/a",
  commonDir: "/tmp/t/repo/.git",
  hooksDir: "/tmp/t/repo/.git/hooks",
  storeDir: "/tmp/t/home/projects/k",
  spexHome: "/tmp/t/home",
  userHome: "/home/u",
  harness: "claude",
  tmuxDir: "/tmp/tmux-1000",
  readable: ["/tmp/t/repo", "/usr/bin", "/tmp/t/home/bin/path-x"],
  env: {},
};

/** The pairs mounted with a given bwrap option, in order. */
function mounts(args: string[], option: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) if (args[i] === option) out.push(args[i + 1]!);
  return out;
}

describe("bwrapArgs", () => {
  test("/ read-only first, a private /tmp, then what lives under /tmp read-only (parents first), then the writable folders (of the git folder only what a commit writes), then the git folder's hooks and config read-only again", () => {
    const args = bwrapArgs({ ...plan, mode: "on" });
    expect(args.slice(0, 5)).toEqual(["--die-with-parent", "--ro-bind", "/", "/", "--dev"]);
    expect(args).toContain("--tmpfs");
    // Only what a private /tmp hides comes back; /usr/bin is already read-only under /.
    expect(mounts(args, "--ro-bind-try")).toEqual(["/tmp/t/repo", "/tmp/t/home", "/tmp/t/home/bin/path-x", "/tmp/t/repo/.git/hooks", "/tmp/t/repo/.git/config"]);
    const git = ["objects", "refs", "logs", "reftable", "lfs", "rr-cache"].map((d) => `${plan.commonDir}/${d}`);
    expect(mounts(args, "--bind-try")).toEqual([plan.worktree, ...git, plan.storeDir, "/tmp/t/home/locks", "/home/u/.claude", "/home/u/.claude.json", plan.tmuxDir]);
    // The git folder itself (its top level, modules/, worktrees/) is never writable.
    expect(mounts(args, "--bind-try")).not.toContain(plan.commonDir);
    // A writable folder lies over the read-only main checkout it sits in.
    expect(args.indexOf(plan.worktree)).toBeGreaterThan(args.indexOf("/tmp/t/repo"));
    expect(args).not.toContain("--unshare-net");
  });

  test("the worktree's own folder in the git folder is writable, but not what points git elsewhere: its commondir, gitdir, config.worktree and the worktree's .git file", () => {
    const gitDir = "/tmp/t/repo/.git/worktrees/a";
    const args = bwrapArgs({ ...plan, mode: "on", gitDir });
    expect(mounts(args, "--bind-try")).toContain(gitDir);
    const again = [`${gitDir}/commondir`, `${gitDir}/gitdir`, `${gitDir}/config.worktree`, `${plan.worktree}/.git`];
    expect(mounts(args, "--ro-bind-try").slice(-4)).toEqual(again);
    for (const f of again) expect(args.lastIndexOf(f)).toBeGreaterThan(args.indexOf(gitDir));
  });

  test("a hooks folder core.hooksPath puts elsewhere in the git folder is read-only too, even under a writable part of it", () => {
    const args = bwrapArgs({ ...plan, mode: "on", hooksDir: "/tmp/t/repo/.git/my hooks" });
    expect(mounts(args, "--ro-bind-try").slice(-3)).toEqual(["/tmp/t/repo/.git/hooks", "/tmp/t/repo/.git/my hooks", "/tmp/t/repo/.git/config"]);
    // core.hooksPath under a writable part (objects/, refs/) is read-only over it.
    const under = bwrapArgs({ ...plan, mode: "on", hooksDir: "/tmp/t/repo/.git/refs/hooks" });
    expect(under.lastIndexOf("/tmp/t/repo/.git/refs/hooks")).toBeGreaterThan(under.indexOf("/tmp/t/repo/.git/refs"));
  });

  test("no-network unshares the network; CLAUDE_CONFIG_DIR and CODEX_HOME are the agents' config when set", () => {
    expect(bwrapArgs({ ...plan, mode: "no-network" })).toContain("--unshare-net");
    expect(mounts(bwrapArgs({ ...plan, mode: "on", env: { CLAUDE_CONFIG_DIR: "/cfg/claude" } }), "--bind-try")).toContain("/cfg/claude");
    expect(mounts(bwrapArgs({ ...plan, mode: "on", harness: "codex", env: { CODEX_HOME: "/cfg/codex" } }), "--bind-try")).toContain("/cfg/codex");
  });
});

describe("macOS", () => {
  test("a sandbox is refused with sandbox_unsupported; none asked for is not", () => {
    expect(() => refuseUnsandboxable("", "darwin")).not.toThrow();
    let caught: unknown;
    try {
      refuseUnsandboxable("on", "darwin");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SpexError);
    expect((caught as SpexError).code).toBe("sandbox_unsupported");
    expect((caught as SpexError).message).toContain("macOS");
    expect(sandboxCheck("darwin")).toMatchObject({ name: "sandbox", ok: false, required: false, code: "sandbox_unsupported" });
  });
});
