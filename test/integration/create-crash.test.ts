// A create killed while git makes its branch or worktree, and git steps that
// fail for reasons that are not spex's (issue 21 items 7 and 10). The kills
// are made where git is, deterministically: a repository hook (git runs it
// inside the step) kills the spex above it, and git with it or not. The next
// command rolls back what it can prove that create made, and nothing else.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, madeBySpex, sandbox, waitFor } from "../support/sandbox";
import { processesWithEnv } from "../support/processes";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function receiptsDir(s: Sandbox): string {
  const projects = join(s.home, "projects");
  // The first create may have made projects/ and not yet its project's folder in it.
  const project = existsSync(projects) ? readdirSync(projects)[0] : undefined;
  return project ? join(projects, project, "receipts") : "";
}

function receipts(s: Sandbox): Record<string, any>[] {
  const dir = receiptsDir(s);
  return dir && existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")).map((n) => JSON.parse(readFileSync(join(dir, n), "utf8"))) : [];
}

function spexBranches(s: Sandbox): string[] {
  return s.git(["for-each-ref", "--format=%(refname:short)", "refs/heads/spex/"]).split("\n").filter(Boolean);
}

function worktreePaths(s: Sandbox): string[] {
  return s.git(["worktree", "list", "--porcelain"]).split("\n").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9)).filter((p) => p !== s.repo);
}

/**
 * A hook that, armed once, kills the spex whose git runs it: with `chain`,
 * every process between them too (git, its children, this hook), as a kill of
 * the whole job does; without, spex alone (git finishes on its own).
 */
function killerHook(s: Sandbox, name: string, opts: { chain: boolean; guard?: string }): string {
  const arm = join(s.dir, `${name}.armed`);
  writeFileSync(arm, "");
  const file = join(s.repo, ".git", "hooks", name);
  writeFileSync(file, `#!/bin/sh\n${opts.guard ?? ""}\n${killOnce(arm, opts.chain)}exit 0\n`);
  chmodSync(file, 0o755);
  return arm;
}

/** Shell lines that, while `arm` exists (once), kill the spex above this process: with `chain`, every process between too. */
function killOnce(arm: string, chain: boolean): string {
  return `[ -e '${arm}' ] && {
rm -f '${arm}'
spex=$(readlink -f '${SPEX_BIN}')
p=$PPID
chain=""
while [ "$p" -gt 1 ]; do
  chain="$chain $p"
  [ "$(readlink -f /proc/$p/exe)" = "$spex" ] && break
  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)
done
${chain ? 'kill -9 $chain $$' : "kill -9 $p"}
}
`;
}

/**
 * Kills the whole job inside git's own `worktree add`, where no hook runs:
 * as it starts `git symbolic-ref HEAD …` for the new worktree, whose HEAD is
 * still the null id under git's lock `initializing`. git runs that command
 * from its exec path, so a `git` first on PATH hands `worktree add` an exec
 * path whose `git` kills (spex gives git no exec path of its own).
 */
function killInsideWorktreeAdd(s: Sandbox): Record<string, string> {
  const real = s.git(["--exec-path"]).trim();
  const front = join(s.dir, "front");
  const inner = join(s.dir, "exec-path");
  mkdirSync(front, { recursive: true });
  mkdirSync(inner, { recursive: true });
  const arm = join(s.dir, "symbolic-ref.armed");
  writeFileSync(arm, "");
  writeFileSync(join(front, "git"), `#!/bin/sh\n[ "$1 $2" = "worktree add" ] && GIT_EXEC_PATH='${inner}' && export GIT_EXEC_PATH\nexec '${real}/git' "$@"\n`);
  writeFileSync(join(inner, "git"), `#!/bin/sh\nif [ "$1" = symbolic-ref ]; then\n${killOnce(arm, true)}fi\nexec '${real}/git' "$@"\n`);
  chmodSync(join(front, "git"), 0o755);
  chmodSync(join(inner, "git"), 0o755);
  return { PATH: `${front}:${s.env.PATH ?? process.env.PATH}` };
}

/** Killed while `git branch` commits the session's branch: the branch exists, no worktree yet. */
const AT_BRANCH = { name: "reference-transaction", guard: `[ "$1" = committed ] || exit 0\ngrep -q ' refs/heads/spex/' || exit 0` };

/** A German messages locale, and whether this machine's git speaks it (its translations installed). */
const GERMAN = { LANG: "C.UTF-8", LC_ALL: "C.UTF-8", LANGUAGE: "de" };
const gitSpeaksGerman = /Verwendung/.test(spawnSync("git", ["worktree", "lock", "-h"], { env: { ...process.env, ...GERMAN }, encoding: "utf8" }).stdout);

function newKilled(s: Sandbox, prompt = "killed while git works") {
  const r = s.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", prompt]);
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: -1, stdout: "" });
}

/** Nothing of a create is left: no session, branch, worktree, folder or receipt; ls and doctor say nothing. */
function nothingLeft(s: Sandbox): void {
  const ls = s.spex(["session", "ls", "--json"]);
  expect({ code: ls.code, stderr: ls.stderr, rows: JSON.parse(ls.stdout) }).toEqual({ code: 0, stderr: "", rows: [] });
  expect(spexBranches(s)).toEqual([]);
  expect(worktreePaths(s)).toEqual([]);
  const root = join(s.repo, ".worktrees");
  expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
  expect(receipts(s)).toEqual([]);
  const doctor = JSON.parse(s.spex(["doctor", "--json"]).stdout);
  expect(doctor.orphans.abandonedCreates).toEqual([]);
  expect(doctor.orphans.worktrees).toEqual([]);
}

describe("a create killed while git works", () => {
  test("killed as git commits the branch: the next ls removes the branch", () => {
    sb = sandbox();
    killerHook(sb, AT_BRANCH.name, { chain: true, guard: AT_BRANCH.guard });
    newKilled(sb);
    expect(spexBranches(sb)).toHaveLength(1);
    nothingLeft(sb);
  });

  test("killed as git commits the branch: the next new removes it and makes its own session", () => {
    sb = sandbox();
    killerHook(sb, AT_BRANCH.name, { chain: true, guard: AT_BRANCH.guard });
    newKilled(sb);
    const [left] = spexBranches(sb);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "the next one"]);
    expect(r.code).toBe(0);
    expect(spexBranches(sb)).toEqual([JSON.parse(r.stdout).branch]);
    expect(spexBranches(sb)).not.toContain(left);
  });

  test("killed with git after the checkout (in post-checkout): the next ls removes the worktree and the branch", () => {
    sb = sandbox();
    killerHook(sb, "post-checkout", { chain: true });
    newKilled(sb);
    expect(worktreePaths(sb)).toHaveLength(1);
    expect(spexBranches(sb)).toHaveLength(1);
    nothingLeft(sb);
  });

  test("spex killed while git goes on: once git is done the next ls removes what it made", async () => {
    sb = sandbox();
    killerHook(sb, "post-checkout", { chain: false });
    newKilled(sb);
    // git finishes on its own; until it does, a recovery leaves its step alone.
    await waitFor(() => {
      sb.spex(["session", "ls"]);
      return receipts(sb).length === 0;
    }, "the rollback once git ended", 30000);
    nothingLeft(sb);
  });

  test("killed inside git's worktree add, before the new HEAD names the branch (git's lock still held): the next ls removes worktree and branch", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "killed in git"], { env: killInsideWorktreeAdd(sb) });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: -1, stdout: "" });
    const [entry] = sb.git(["worktree", "list", "--porcelain"]).split("\n\n").filter((e) => !e.startsWith(`worktree ${sb.repo}\n`));
    expect(entry).toContain("locked initializing");
    expect(entry).toContain("HEAD 0000000000000000000000000000000000000000");
    nothingLeft(sb);
  });

  test.skipIf(!gitSpeaksGerman)("killed inside git's worktree add under a German locale (git's lock reason translated): the next ls removes worktree and branch", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "killed in git"], { env: { ...killInsideWorktreeAdd(sb), ...GERMAN } });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: -1, stdout: "" });
    const [entry] = sb.git(["worktree", "list", "--porcelain"]).split("\n\n").filter((e) => !e.startsWith(`worktree ${sb.repo}\n`));
    expect(entry).toContain("locked ");
    expect(entry).not.toContain("locked initializing");
    nothingLeft(sb);
  });

  test("killed inside git's worktree add between registering the worktree and writing its .git file: the next ls removes the registration too", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "killed in git"], { env: killInsideWorktreeAdd(sb) });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: -1, stdout: "" });
    // git writes locked, the folder, gitdir, then the folder's .git file, HEAD and commondir: take back the last three
    // and the registration is as a kill just after gitdir leaves it (listed, locked, the folder empty).
    const [path] = worktreePaths(sb);
    const gitFile = readFileSync(join(path!, ".git"), "utf8");
    const adminDir = gitFile.replace(/^gitdir: /, "").trim();
    for (const f of [join(path!, ".git"), join(adminDir, "HEAD"), join(adminDir, "commondir")]) rmSync(f);
    expect(readdirSync(path!)).toEqual([]);
    expect(worktreePaths(sb)).toEqual([path!]);
    nothingLeft(sb);
  });

  /** The state a kill while git writes the new worktree's commondir leaves: that file empty, and every worktree listing of git fails. */
  function killedWritingCommondir(s: Sandbox): { path: string; admin: string } {
    const r = s.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "killed writing commondir"], { env: killInsideWorktreeAdd(s) });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: -1, stdout: "" });
    const [path] = worktreePaths(s);
    const admin = readFileSync(join(path!, ".git"), "utf8").replace(/^gitdir: /, "").trim();
    writeFileSync(join(admin, "commondir"), "");
    expect(spawnSync("git", ["worktree", "list"], { cwd: s.repo, env: s.env, encoding: "utf8" }).stderr).toContain("commondir");
    return { path: path!, admin };
  }

  test("killed while git writes the new worktree's commondir, which breaks every git worktree listing: the next ls repairs it and nothing is left", () => {
    sb = sandbox();
    const { admin } = killedWritingCommondir(sb);
    nothingLeft(sb);
    expect(existsSync(admin)).toBe(false);
    expect(spawnSync("git", ["worktree", "list"], { cwd: sb.repo, env: sb.env }).status).toBe(0);
  });

  test("the same, with a file of someone's in the worktree: git's folder and the file stay, and ls says the receipt is stuck", () => {
    sb = sandbox();
    const { path, admin } = killedWritingCommondir(sb);
    writeFileSync(join(path, "notes.txt"), "mine\n");
    const ls = sb.spex(["session", "ls"]);
    expect(ls.stderr).toContain("receipt_stuck");
    expect(readFileSync(join(path, "notes.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(admin, "commondir"), "utf8")).toBe("");
  });

  test("what is not provably the dead create's stays: a commit on its branch keeps branch and worktree, reported until removed by hand", () => {
    sb = sandbox();
    killerHook(sb, "post-checkout", { chain: true });
    newKilled(sb);
    const [path] = worktreePaths(sb);
    writeFileSync(join(path!, "work.txt"), "someone's work\n");
    sb.git(["add", "work.txt"], path);
    sb.git(["commit", "-q", "-m", "work"], path);
    const ls = sb.spex(["session", "ls"]);
    expect(ls.code).toBe(0);
    expect(ls.stderr).toContain("receipt_stuck");
    expect(ls.stderr).toContain("left as it is");
    expect(readFileSync(join(path!, "work.txt"), "utf8")).toBe("someone's work\n");
    expect(spexBranches(sb)).toHaveLength(1);
    // Gone by hand: the receipt retires itself.
    sb.git(["worktree", "remove", "--force", path!]);
    sb.git(["branch", "-D", spexBranches(sb)[0]!]);
    nothingLeft(sb);
  });

  test("five kills of the whole job at a random moment of new's git steps: afterwards every branch and worktree belongs to a listed session", async () => {
    sb = sandbox();
    // A tree with some weight, so a kill can land inside the checkout.
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(sb.repo, `d${d}`));
      for (let f = 0; f < 50; f++) writeFileSync(join(sb.repo, `d${d}`, `f${f}.txt`), `${d} ${f}\n`);
    }
    sb.git(["add", "."]);
    sb.git(["commit", "-q", "-m", "weight"]);
    for (let round = 0; round < 5; round++) {
      const child = spawn(SPEX_BIN, ["session", "new", "--no-launch", "--launcher", "shell", `round ${round}`], { cwd: sb.repo, env: sb.env, stdio: "ignore", detached: true });
      let done = false;
      const exited = new Promise((resolve) => child.on("exit", resolve)).then(() => (done = true));
      // Aimed at the git steps: a random moment shortly after the receipt (written just before them) appears.
      await waitFor(() => done || receipts(sb).length > 0, "the receipt", 30000, 2);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)));
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already done
      }
      await exited;
      let lastLs = "";
      await waitFor(() => {
        lastLs = sb.spex(["session", "ls"]).stderr;
        return receipts(sb).length === 0;
      }, `round ${round}: the receipt settled`, 30000).catch((e: Error) => {
        // Say what held it: the receipt, what ls reported, git's view, and any process still carrying the create's id.
        const held = receipts(sb).map((r) => ({ receipt: r, carriers: processesWithEnv("SPEX_CREATE_ID", r.id) }));
        throw new Error(`${e.message}\n${JSON.stringify(held, null, 1)}\nls: ${lastLs}\nworktrees: ${sb.git(["worktree", "list", "--porcelain"])}\nbranches: ${spexBranches(sb).join(" ")}`);
      });
      const rows = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout) as { branch: string; worktree_path: string }[];
      expect(spexBranches(sb).sort()).toEqual(rows.map((r) => r.branch).sort());
      expect(worktreePaths(sb).sort()).toEqual(rows.map((r) => realpathSync(r.worktree_path)).sort());
      const root = join(sb.repo, ".worktrees");
      expect((existsSync(root) ? readdirSync(root) : []).map((n) => join(root, n)).sort()).toEqual(rows.map((r) => r.worktree_path).sort());
    }
  }, 120000);
});

/** A create frozen at `step` (SIGSTOP): resumes when the returned function is called, then answers. */
async function newFrozenAt(s: Sandbox, step: string): Promise<{ receipt: Record<string, any>; resume: () => Promise<{ code: number | null; stdout: string }> }> {
  const child = spawn(SPEX_BIN, ["session", "new", "--no-launch", "--launcher", "shell", "--json", "raced"], { cwd: s.repo, env: { ...s.env, SPEX_TEST_STOP_AT: step } });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  await waitFor(() => {
    try {
      return readFileSync(`/proc/${child.pid}/stat`, "utf8").replace(/.*\) /, "").startsWith("T");
    } catch {
      return false;
    }
  }, `new to stop at ${step}`);
  const [receipt] = receipts(s);
  return {
    receipt: receipt!,
    resume: async () => {
      child.kill("SIGCONT");
      return { code: await exited, stdout };
    },
  };
}

describe("a git step that fails for reasons that are not spex's", () => {
  test("a branch another process made between the name check and git: name_collision, that branch untouched, nothing else left", async () => {
    sb = sandbox();
    const before = madeBySpex(sb);
    const frozen = await newFrozenAt(sb, "receipt");
    sb.git(["branch", frozen.receipt.branch, "main"]);
    const theirs = sb.git(["rev-parse", frozen.receipt.branch]).trim();
    const r = await frozen.resume();
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "name_collision", rolledBack: true });
    expect(sb.git(["rev-parse", frozen.receipt.branch]).trim()).toBe(theirs);
    sb.git(["branch", "-D", frozen.receipt.branch]);
    expect(madeBySpex(sb).worktrees).toBe(before.worktrees);
    nothingLeft(sb);
  });

  test("a folder another process made there between: name_collision, the folder untouched, the session's branch removed", async () => {
    sb = sandbox();
    const frozen = await newFrozenAt(sb, "branch");
    mkdirSync(frozen.receipt.worktree, { recursive: true });
    writeFileSync(join(frozen.receipt.worktree, "mine.txt"), "mine\n");
    const r = await frozen.resume();
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "name_collision", rolledBack: true });
    expect(readFileSync(join(frozen.receipt.worktree, "mine.txt"), "utf8")).toBe("mine\n");
    expect(spexBranches(sb)).toEqual([]);
    expect(worktreePaths(sb)).toEqual([]);
    expect(receipts(sb)).toEqual([]);
  });

  test("a failing post-checkout hook of the user: post_checkout_failed with its exit status and words, nothing left", () => {
    sb = sandbox();
    const hook = join(sb.repo, ".git", "hooks", "post-checkout");
    writeFileSync(hook, "#!/bin/sh\necho 'npm install failed: no network' >&2\nexit 3\n");
    chmodSync(hook, 0o755);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "hooked"]);
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stdout).error;
    expect(error).toMatchObject({ code: "post_checkout_failed", exit: 3, stderr: "npm install failed: no network", rolledBack: true });
    expect(error.message).toContain("exit 3");
    expect(error.message).toContain("npm install failed: no network");
    nothingLeft(sb);
  });

  test.skipIf(!gitSpeaksGerman)("a failing post-checkout hook under a German locale: the error carries the hook's words only, not git's own", () => {
    sb = sandbox();
    const hook = join(sb.repo, ".git", "hooks", "post-checkout");
    writeFileSync(hook, "#!/bin/sh\necho 'npm install failed: no network' >&2\nexit 3\n");
    chmodSync(hook, 0o755);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "hooked"], { env: GERMAN });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "post_checkout_failed", exit: 3, stderr: "npm install failed: no network", rolledBack: true });
    nothingLeft(sb);
  });

  test("a receipt whose worktree and branch were removed by hand retires itself", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "crashy"], { env: { SPEX_TEST_CRASH_AT: "worktree" } });
    expect(r.code).toBe(-1);
    const [receipt] = receipts(sb);
    sb.git(["worktree", "remove", "--force", receipt!.worktree]);
    sb.git(["branch", "-D", receipt!.branch]);
    nothingLeft(sb);
  });
});

describe("a create killed once its session is published", () => {
  // The record published is a session that stands: whatever limit the create was given stands with it.
  for (const step of ["record", "published"]) {
    test(`killed at "${step}": the session it leaves has the budget it was made with (--budget-usd, --hard)`, () => {
      sb = sandbox();
      const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--budget-usd", "5", "--hard", "budgeted"], { env: { SPEX_TEST_CRASH_AT: step } });
      expect(r.code).toBe(-1);
      const rows = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout) as { id: string }[];
      expect(rows).toHaveLength(1);
      const dir = join(sb.home, "projects", readdirSync(join(sb.home, "projects"))[0]!, "sessions", rows[0]!.id);
      expect(existsSync(join(dir, "budget.json")) ? JSON.parse(readFileSync(join(dir, "budget.json"), "utf8")) : undefined).toMatchObject({ usd: 5, hard: true, source: "flag" });
      expect(existsSync(join(dir, "budget.hard"))).toBe(true);
    });
  }

  test("killed with its budget written and its record not yet: the rollback takes the budget with the session", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--budget-usd", "5", "--hard", "budgeted"], { env: { SPEX_TEST_CRASH_AT: "budget" } });
    expect(r.code).toBe(-1);
    nothingLeft(sb);
    const sessions = join(sb.home, "projects", readdirSync(join(sb.home, "projects"))[0]!, "sessions");
    expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
  });
});
