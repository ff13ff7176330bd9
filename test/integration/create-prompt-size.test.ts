// A prompt is one argv operand of the agent (claude, codex, gemini, a plain
// command): one the kernel would refuse is settled before anything is made,
// and the limit create states is the kernel's own (a prompt of exactly that
// size still reaches the agent).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** Everything a create could make: worktrees, branches, store folders, receipts, tmux sessions. */
function madeSoFar(s: Sandbox) {
  const projects = join(s.home, "projects");
  const stores = existsSync(projects) ? readdirSync(projects).flatMap((k) => readdirSync(join(projects, k)).map((d) => `${k}/${d}`)) : [];
  const list = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
  return {
    worktrees: s.git(["worktree", "list", "--porcelain"]),
    branches: s.git(["branch", "--list"]),
    worktreeRoot: list(join(s.repo, ".worktrees")),
    sessions: stores.flatMap((p) => (p.endsWith("/sessions") ? list(join(projects, p)) : [])),
    receipts: stores.flatMap((p) => (p.endsWith("/receipts") ? list(join(projects, p)) : [])),
    tmux: s.tmux(["list-sessions", "-F", "#{session_name}"]).stdout.trim(),
  };
}

function refusalOf(stdout: string): Record<string, any> {
  return JSON.parse(stdout).error;
}

describe("a prompt too large for the agent's command line", () => {
  test("is refused with prompt_too_large, the limit in the message, before anything is made (launch or --no-launch, every operand harness)", () => {
    sb = sandbox();
    installFakeAgents(sb);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { plain: { harness: "shell", command: "sh -c 'exec sleep 600' plain" } } }));
    const before = madeSoFar(sb);
    const prompt = "fix the parser\n" + "x".repeat(200 * 1024);
    for (const args of [["--launcher", "claude"], ["--launcher", "plain"], ["--launcher", "claude", "--no-launch"]]) {
      const r = sb.spex(["session", "new", ...args, "--json", "--prompt-file", "-"], { input: prompt });
      expect(r.code).toBe(1);
      const error = refusalOf(r.stdout);
      expect(error.code).toBe("prompt_too_large");
      expect(error.bytes).toBe(Buffer.byteLength(prompt));
      expect(error.limit).toBeGreaterThan(64 * 1024);
      expect(error.limit).toBeLessThan(error.bytes);
      expect(error.message).toContain(`at most ${error.limit} bytes`);
      expect(error.message).not.toContain("\\n");
      expect(error.hint).not.toContain("resume");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(madeSoFar(sb)).toEqual(before);
    }
  });

  test("a prompt of exactly the stated limit still reaches the agent as one argument", async () => {
    sb = sandbox();
    const out = join(sb.dir, "operand-bytes.txt");
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { rec: { harness: "shell", command: `sh -c 'printf "%s" "$1" | wc -c > ${out}; exec sleep 600' rec` } } }));
    const over = sb.spex(["session", "new", "--launcher", "rec", "--json", "--prompt-file", "-"], { input: "y".repeat(1024 * 1024) });
    const limit: number = refusalOf(over.stdout).limit;
    const fits = sb.spex(["session", "new", "--launcher", "rec", "--json", "--prompt-file", "-"], { input: "y".repeat(limit) });
    expect(fits.stderr).toBe("");
    expect(fits.code).toBe(0);
    await waitFor(() => existsSync(out) && readFileSync(out, "utf8").trim() === String(limit), `the agent to receive ${limit} bytes`);
    const oneMore = sb.spex(["session", "new", "--launcher", "rec", "--json", "--prompt-file", "-"], { input: "y".repeat(limit + 1) });
    expect(refusalOf(oneMore.stdout).code).toBe("prompt_too_large");
  });
});
