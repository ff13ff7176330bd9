// A sandboxed agent owns its worktree's files and index, so it can add a
// submodule (a gitlink) whose git folder it made, with `core.fsmonitor` or a
// clean filter of its own. git runs those as it checks the submodule: spex's
// own `git status` over that worktree (close, diff, merge) must not run them
// outside the sandbox. Driven through the built binary against real bwrap.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const bwrap = sandboxAvailability();

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** What an agent in the sandbox can do in its own worktree: a nested repository, registered as a gitlink, that runs `marker`'s writes. */
function plant(worktree: string, fsmonitorMarker: string, filterMarker: string): void {
  const sub = join(worktree, "vendor", "lib");
  mkdirSync(sub, { recursive: true });
  git(sub, ["init", "-q"]);
  writeFileSync(join(sub, ".gitattributes"), "data.txt filter=planted\n");
  writeFileSync(join(sub, "data.txt"), "one\n");
  git(sub, ["add", "."]);
  git(sub, ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "x"]);
  git(sub, ["config", "core.fsmonitor", `touch '${fsmonitorMarker}'; false`]);
  git(sub, ["config", "filter.planted.clean", `touch '${filterMarker}'; cat`]);
  // Changed since its index: git compares the content, through the clean filter.
  writeFileSync(join(sub, "data.txt"), "two\n");
  const head = git(sub, ["rev-parse", "HEAD"]).trim();
  git(worktree, ["update-index", "--add", "--cacheinfo", `160000,${head},vendor/lib`]);
}

/** A sandboxed session (never launched) with the plant in its worktree, and whether each planted command ran. */
function plantedSession(label: string): { made: Record<string, any>; worktree: string; ran(): boolean[]; forget(): void } {
  sb = sandbox();
  const made = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--sandbox", "--json", label]).stdout);
  const worktree = made.worktree_path as string;
  // Outside every folder the contained git may read: a write there from inside has nowhere to go.
  const markers = [join(dirname(sb.repo), "fsmonitor-ran"), join(dirname(sb.repo), "filter-ran")];
  plant(worktree, markers[0]!, markers[1]!);
  return { made, worktree, ran: () => markers.map((m) => existsSync(m)), forget: () => markers.forEach((m) => rmSync(m)) };
}

test.skipIf(!bwrap.usable)("close, diff and merge check a sandboxed worktree without running what a planted submodule's config names, and still see its changes", () => {
  const { made, worktree, ran, forget } = plantedSession("planted");

  // The plant works: git run plainly in the worktree (as spex did) runs both.
  spawnSync("git", ["status", "--porcelain"], { cwd: worktree });
  expect(ran()).toEqual([true, true]);
  forget();

  const close = sb.spex(["session", "close", made.session_id, "--json"]);
  expect(close.code).not.toBe(0);
  const refusal = JSON.parse(close.stdout).error;
  expect(refusal.code).toBe("worktree_dirty");
  expect(JSON.stringify(refusal)).toContain("vendor/lib");
  expect(ran()).toEqual([false, false]);

  const diff = JSON.parse(sb.spex(["session", "diff", made.session_id, "--json"]).stdout);
  expect(diff.uncommittedNotShown).toContain("vendor/lib");
  expect(sb.spex(["session", "diff", made.session_id, "--worktree", "--json"]).code).toBe(0);
  expect(ran()).toEqual([false, false]);

  const merge = sb.spex(["session", "merge", made.session_id, "--include-uncommitted", "--json"]);
  expect(merge.code, merge.stdout + merge.stderr).toBe(0);
  expect(ran()).toEqual([false, false]);
});

test.skipIf(!bwrap.usable)("merge into the branch a sandboxed session's worktree has out checks that checkout in a sandbox too, and refuses over the planted submodule's change", () => {
  const { made, ran, forget } = plantedSession("holder");
  spawnSync("git", ["status", "--porcelain"], { cwd: made.worktree_path });
  expect(ran()).toEqual([true, true]);
  forget();
  // Another session's work, landed on the branch the sandboxed worktree has out.
  const other = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "other"]).stdout);
  writeFileSync(join(other.worktree_path, "work.txt"), "the work\n");
  git(other.worktree_path, ["add", "work.txt"]);
  git(other.worktree_path, ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "the work"]);

  const merge = sb.spex(["session", "merge", other.session_id, "--into", made.branch, "--json"]);
  expect(merge.code).not.toBe(0);
  const refusal = JSON.parse(merge.stdout).error;
  expect(refusal).toMatchObject({ code: "main_checkout_dirty", checkout: made.worktree_path, files: ["vendor/lib"] });
  expect(ran()).toEqual([false, false]);
});

test.skipIf(!bwrap.usable)("doctor reads a worktree no record owns in a sandbox too: a planted submodule's config does not run, and its changes make it one to inspect", () => {
  const { made, worktree, ran } = plantedSession("orphaned");
  // The record is gone (a store wiped by hand): nothing says a sandboxed agent worked here.
  const [key] = readdirSync(join(sb.home, "projects"));
  rmSync(join(sb.home, "projects", key!, "sessions", made.session_id), { recursive: true });
  const doctor = sb.spex(["doctor", "--json"]);
  expect(ran()).toEqual([false, false]);
  const advice = JSON.stringify(JSON.parse(doctor.stdout));
  expect(advice).toContain(worktree);
  expect(advice).toMatch(/uncommitted work: \d+ changed/);
});

test.skipIf(!bwrap.usable)("where bubblewrap no longer runs, a plain close of a sandboxed session refuses with sandbox_unavailable and changes nothing; --force closes it", () => {
  sb = sandbox();
  const made = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--sandbox", "--json", "no bwrap later"]).stdout);
  // A PATH with what close runs but bwrap (uninstalled since the session was made).
  const bin = join(sb.dir, "bin-without-bwrap");
  mkdirSync(bin);
  for (const tool of ["git", "tmux", "sh", "ps"]) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    if (found) symlinkSync(found, join(bin, tool));
  }
  const env = { PATH: bin };
  const plain = sb.spex(["session", "close", made.session_id, "--json"], { env });
  expect(plain.code).not.toBe(0);
  const refusal = JSON.parse(plain.stdout).error;
  expect(refusal.code).toBe("sandbox_unavailable");
  expect(refusal.hint).toContain("--force");
  expect(existsSync(made.worktree_path)).toBe(true);
  const forced = sb.spex(["session", "close", made.session_id, "--force", "--json"], { env });
  expect(forced.code, forced.stdout + forced.stderr).toBe(0);
  expect(existsSync(made.worktree_path)).toBe(false);
});
