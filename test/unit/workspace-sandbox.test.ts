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
  test("/ read-only first, a private /tmp, then what lives under /tmp read-only (parents first), then the writable folders, then the git folder's hooks and config read-only again", () => {
    const args = bwrapArgs({ ...plan, mode: "on" });
    expect(args.slice(0, 5)).toEqual(["--die-with-parent", "--ro-bind", "/", "/", "--dev"]);
    expect(args).toContain("--tmpfs");
    // Only what a private /tmp hides comes back; /usr/bin is already read-only under /.
    expect(mounts(args, "--ro-bind-try")).toEqual(["/tmp/t/repo", "/tmp/t/home", "/tmp/t/home/bin/path-x", "/tmp/t/repo/.git/hooks", "/tmp/t/repo/.git/config"]);
    expect(mounts(args, "--bind-try")).toEqual([plan.worktree, plan.commonDir, plan.storeDir, "/tmp/t/home/locks", "/home/u/.claude", "/home/u/.claude.json", plan.tmuxDir]);
    // A writable folder lies over the read-only main checkout it sits in, and the hooks over the writable git folder.
    expect(args.indexOf(plan.worktree)).toBeGreaterThan(args.indexOf("/tmp/t/repo"));
    expect(args.indexOf("/tmp/t/repo/.git/hooks")).toBeGreaterThan(args.indexOf(plan.commonDir));
    expect(args).not.toContain("--unshare-net");
  });

  test("a hooks folder core.hooksPath puts elsewhere in the git folder is read-only too, over the writable git folder", () => {
    const args = bwrapArgs({ ...plan, mode: "on", hooksDir: "/tmp/t/repo/.git/my hooks" });
    expect(mounts(args, "--ro-bind-try").slice(-3)).toEqual(["/tmp/t/repo/.git/hooks", "/tmp/t/repo/.git/my hooks", "/tmp/t/repo/.git/config"]);
    expect(args.indexOf("/tmp/t/repo/.git/my hooks")).toBeGreaterThan(args.indexOf(plan.commonDir));
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
