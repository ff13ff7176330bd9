// `spex doctor`: what this machine has and what is left over. It reports;
// it never deletes.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { type LauncherConfig, builtinLaunchers, loadConfig } from "../config";
import { findCheckout } from "../git/main-root";
import { hooksDirOf } from "../git/ops";
import { MIN_GIT_TEXT, gitOldEnough, gitTooOldHint, installedGitLine, parseGitVersion } from "../git/version";
import { CHAIN_LINE, HOOKS_IN_WORK_TREE, HOOKS_OUTSIDE_REPO, postCheckoutState } from "../hooks/post-checkout";
import { whichSync } from "../proc/which";
import { builtinCommand, codexProjectTrust, harnessAdapter } from "../harness";
import type { ProjectStore } from "../store";
import { type Cleanup, type Orphans, findOrphans, noOrphans } from "./orphans";
import { mcpChecks } from "./mcp";
import { shellWord } from "../tmux/quote";
import { notifyCheck } from "../attention/doctor";
import { sandboxCheck } from "../workspace/sandbox";
import { readLogoutCheck } from "../survive/doctor";

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** Optional checks (an agent CLI not installed) warn without failing the report. */
  required: boolean;
  detail: string;
  /** A stable code for a known state a person can act on (present only then). */
  code?: string;
}

export interface DoctorReport {
  ok: boolean;
  /** The main checkout checked, or null outside a repository (machine checks only). */
  project: string | null;
  checks: DoctorCheck[];
  orphans: Orphans;
  /** Each orphan with the command that removes it, or shows it when spex cannot prove removing it loses nothing. */
  cleanup: Cleanup[];
}

function version(cmd: string, args: string[]): string | undefined {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return r.status === 0 ? (r.stdout || r.stderr).trim().split("\n")[0] : undefined;
}

/** git on PATH, and new enough for everything spex asks of it (merge-tree --write-tree). */
function gitCheck(): DoctorCheck {
  const line = installedGitLine();
  if (!line) return { name: "git", required: true, ok: false, detail: "git is not on PATH: install git" };
  const v = parseGitVersion(line);
  if (v && !gitOldEnough(v)) {
    return { name: "git", required: true, ok: false, code: "git_too_old", detail: `${line} is older than ${MIN_GIT_TEXT}, which spex needs (git merge-tree --write-tree: merging and closing sessions fail without it): ${gitTooOldHint(true)}` };
  }
  return { name: "git", required: true, ok: true, detail: line };
}

/** Whether spex's post-checkout hook stands, and which displaced hooks it runs first. */
function postCheckoutCheck(commonDir: string, mainRoot: string): DoctorCheck {
  let hook;
  try {
    hook = postCheckoutState(hooksDirOf(mainRoot), commonDir, mainRoot);
  } catch (e) {
    return { name: "post-checkout hook", required: false, ok: false, detail: (e as Error).message };
  }
  const chain = hook.chained.length > 0 ? `; runs first: ${hook.chained.join(", ")}` : "";
  if (hook.inWorkTree) {
    const where = relative(mainRoot, dirname(hook.file)) || ".";
    const why = `the hooks folder ${where} (core.hooksPath) is inside the work tree, where spex writes nothing: a hook there is the project's file, and each worktree runs its own checkout's copy`;
    // An older spex did rename the user's hook and write its own there: say how to put it back.
    const back =
      hook.ours && hook.chained.length > 0
        ? `; spex's hook at ${hook.file} was put there by an older spex, and yours is ${hook.chained[0]}: put it back with \`mv -f ${shellWord(join(dirname(hook.file), hook.chained[0]!))} ${shellWord(hook.file)}\``
        : "";
    const how = `a checkout inside a session worktree re-renders the agent's hook config only if the project's own post-checkout (${where}/post-checkout) has this line: ${CHAIN_LINE}`;
    return { name: "post-checkout hook", required: false, ok: false, code: HOOKS_IN_WORK_TREE, detail: `not installed: ${why}${back}. ${how}` };
  }
  if (hook.outsideRepo && !hook.ours) {
    const where = dirname(hook.file);
    const why = `git runs hooks from ${where} (core.hooksPath), a folder outside this repository that other repositories may share: it is yours, and spex writes nothing there`;
    const how = `a checkout inside a session worktree re-renders the agent's hook config only if ${hook.file} has this line: ${CHAIN_LINE}`;
    return { name: "post-checkout hook", required: false, ok: false, code: HOOKS_OUTSIDE_REPO, detail: `not installed: ${why}. ${how}` };
  }
  const detail = !hook.installed
    ? "not installed yet (the first `spex session new` installs it)"
    : hook.ours
      ? `${hook.file}${chain}`
      : `${hook.file} is another hook, installed after spex's; the next \`spex session new\` chains it${chain}`;
  return { name: "post-checkout hook", required: false, ok: hook.installed && hook.ours, detail };
}

function homeCheck(home: string): DoctorCheck {
  let ok = true;
  try {
    mkdirSync(home, { recursive: true });
    accessSync(home, constants.W_OK);
  } catch {
    ok = false;
  }
  return { name: "SPEX_HOME", required: true, ok, detail: ok ? home : `${home} is not writable` };
}

function launcherChecks(launchers: Record<string, LauncherConfig>): DoctorCheck[] {
  return Object.entries(launchers).map(([name, launcher]) => {
    const command = launcher.command || builtinCommand(harnessAdapter(launcher.harness), process.env, (p) => whichSync(p));
    const word = command.trim().split(/\s+/)[0] ?? "";
    const found = whichSync(word.replace(/^['"]|['"]$/g, ""));
    return { name: `launcher ${name}`, required: false, ok: !!found, detail: found ? `${word} → ${found}` : `${word} is not on PATH (sessions with --launcher ${name} will be refused)` };
  });
}

/**
 * The machine's checks, then, inside a repository, the project's: its
 * launchers, Codex trust, the git hook and the orphans. Without tmux the
 * check says so and tmux is asked nothing else.
 */
export function runDoctor(home: string, store: ProjectStore | undefined): DoctorReport {
  const checks: DoctorCheck[] = [];
  checks.push(gitCheck());
  const tmuxV = whichSync("tmux") ? version("tmux", ["-V"]) : undefined;
  checks.push({ name: "tmux", required: true, ok: !!tmuxV, detail: tmuxV ?? "tmux is not on PATH: install it (e.g. `apt-get install tmux`, `brew install tmux`); every session runs in tmux" });
  checks.push(homeCheck(home));
  checks.push(notifyCheck(home, store?.root));
  checks.push(sandboxCheck());
  checks.push(readLogoutCheck());
  if (!store) {
    checks.push(...launcherChecks(builtinLaunchers()));
    return { ok: checks.every((c) => c.ok || !c.required), project: null, checks, orphans: noOrphans(), cleanup: [] };
  }
  const config = loadConfig(store.root);
  checks.push(...launcherChecks(config.launchers));
  // Codex asks "Trust this folder?" in every session of an untrusted project (spex records hook trust, not this).
  if (Object.values(config.launchers).some((l) => l.harness === "codex" && whichSync((l.command || "codex").trim().split(/\s+/)[0]!.replace(/^['"]|['"]$/g, "")))) {
    const { file, level, advice } = codexProjectTrust(store.root);
    checks.push({
      name: "codex project trust",
      required: false,
      ok: level === "trusted",
      detail: level === "trusted" ? `${store.root} is trusted in ${file}` : `Codex will ask "Trust this folder?" in each session: trust ${store.root} once in Codex, or ${advice}`,
    });
  }
  const checkout = findCheckout(store.root);
  if (checkout) {
    checks.push(postCheckoutCheck(checkout.commonDir, store.root));
  }
  checks.push(...mcpChecks(store));
  const { orphans, cleanup } = findOrphans(store, config, !!tmuxV);
  return { ok: checks.every((c) => c.ok || !c.required), project: store.root, checks, orphans, cleanup };
}
