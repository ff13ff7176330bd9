// Merge dispatch (issue 21 item 12, seed 001 "the manager's merge dispatch
// prompt"): when `spex session merge` refuses for a conflict, the landing is
// handed to the session's own agent through the ordinary send path. A fake
// agent (the composer of test/support) sits in a real tmux pane on a real
// worktree and branch; the CLI and the backend route hand it the prompt.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type FakeAgent, startFakeAgent } from "../support/comms";
import { commitFiles, newSession } from "../support/review";
import { http, serve } from "./backend-support";

setDefaultTimeout(120000);
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const parse = (text: string) => JSON.parse(text);

/** A session whose branch and main both changed README.md: a merge conflicts. */
async function conflicted(): Promise<{ agent: FakeAgent; branch: string; worktree: string }> {
  const branch = "spex/readme-rework";
  const worktree = join(sb.repo, ".worktrees", "readme-rework");
  sb.git(["worktree", "add", "-q", "-b", branch, worktree, "main"]);
  commitFiles(sb, worktree, { "README.md": "# the session's readme\n" }, "rework the readme");
  commitFiles(sb, sb.repo, { "README.md": "# main's readme\n" }, "main reworks it too");
  const agent = await startFakeAgent(sb, { worktree_path: worktree, branch, prompt: "rework the readme" });
  return { agent, branch, worktree };
}

describe("merge --by-agent", () => {
  test("a conflict's hint names it; the agent is sent a prompt to land its own branch on the verified base, naming done --propose close only for a settled task", async () => {
    const { agent, branch } = await conflicted();
    const id8 = agent.id.slice(0, 8);
    const refused = sb.spex(["session", "merge", agent.id, "--json"]);
    expect(refused.code).toBe(1);
    expect(parse(refused.stdout).error.code).toBe("merge_conflict");
    expect(refused.stderr).toContain(`spex session merge ${id8} --by-agent`);

    const main = sb.git(["rev-parse", "main"]).trim();
    const r = sb.spex(["session", "merge", agent.id, "--by-agent", "--json"]);
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out).toMatchObject({ id: agent.id, branch, into: "main", intoHead: main, conflicts: ["README.md"], dispatched: true, reason: "" });
    expect(["delivered", "queued"]).toContain(out.message.state);
    // Nothing was merged by the command itself.
    expect(sb.git(["rev-parse", "main"]).trim()).toBe(main);

    await waitFor(() => agent.received().length > 0, "the prompt to reach the agent");
    const prompt = agent.received()[0]!;
    for (const part of [
      `Land your own branch ${branch} on main`,
      "conflicts in README.md",
      `(${main.slice(0, 12)})`,
      "`git rebase main`",
      "`git merge main`",
      "run the tests",
      `\`spex session merge ${id8}\``,
      "only if your task is settled, this worktree is no longer needed and nothing is left for a person",
      "`spex session done --propose close",
      "Otherwise declare what is true",
      "`spex session park",
      "`spex session ask",
    ]) expect(prompt).toContain(part);
    // It is a message like any other: on the session's timeline, from the person who asked.
    expect(parse(sb.spex(["session", "message-status", out.message.messageId, "--json"]).stdout)).toMatchObject({ target: agent.id, from: { kind: "user" } });

    // The dashboard's route does the same, as the person at the dashboard.
    commitFiles(sb, sb.repo, { "other.txt": "later\n" }, "main moves on");
    const served = await serve(sb);
    try {
      const viaHttp = await http(served.url, `/api/sessions/${agent.id}/merge-by-agent`, { body: { rebase: true }, token: served.token });
      expect([viaHttp.status, viaHttp.json.dispatched, viaHttp.json.conflicts]).toEqual([200, true, ["README.md"]]);
      await waitFor(() => agent.received().length > 1, "the second prompt to reach the agent");
      expect(agent.received()[1]).toContain("keep a line history, do not merge");
    } finally {
      await served.stop();
    }
  });

  test("a branch already on the base sends nothing; a shell session is refused; merge-only options are usage errors", async () => {
    const { agent, worktree } = await conflicted();
    // The work resolved by hand and landed: nothing left to hand over.
    sb.git(["merge", "-q", "main", "-X", "ours", "-m", "take main in"], worktree);
    const landed = sb.spex(["session", "merge", agent.id, "--json"]);
    expect([landed.code, landed.stderr]).toEqual([0, ""]);
    const none = parse(sb.spex(["session", "merge", agent.id, "--by-agent", "--json"]).stdout);
    expect(none).toMatchObject({ dispatched: false, reason: "already_landed", message: null });
    expect(agent.received()).toEqual([]);

    const shell = newSession(sb, "a shell session");
    commitFiles(sb, shell.worktree, { "s.txt": "s\n" }, "work");
    const refused = sb.spex(["session", "merge", shell.id, "--by-agent", "--json"]);
    expect([refused.code, parse(refused.stdout).error.code]).toEqual([1, "agent_required"]);
    for (const flag of ["--squash", "--close", "--include-uncommitted"]) {
      const r = sb.spex(["session", "merge", agent.id, "--by-agent", flag, "--json"]);
      expect([flag, r.code, parse(r.stdout).error.code]).toEqual([flag, 2, "usage"]);
    }
  });
});
