// `spex doctor`: what this machine has and what is left over. It reports;
// it never deletes.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config";
import { findCheckout } from "../git/main-root";
import { postCheckoutState } from "../hooks/post-checkout";
import { readReceipts } from "../create/receipt";
import { whichSync } from "../launch/launcher";
import { builtinCommand, codexProjectTrust, harnessAdapter } from "../harness";
import { readAll } from "../sessions";
import { readAllTerminals } from "../terminals";
import type { ProjectStore } from "../store";
import { spexSocket } from "../tmux";
import { projectTmuxSessions } from "./tmux";
import { ownerAlive } from "../proc";

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** Optional checks (an agent CLI not installed) warn without failing the report. */
  required: boolean;
  detail: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
  orphans: { worktrees: string[]; tmuxSessions: string[]; retiredRecords: string[]; corruptRecords: string[]; abandonedCreates: string[] };
}

function version(cmd: string, args: string[]): string | undefined {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return r.status === 0 ? (r.stdout || r.stderr).trim().split("\n")[0] : undefined;
}

/** Whether spex's post-checkout hook stands, and which displaced hooks it runs first. */
function postCheckoutCheck(commonDir: string, mainRoot: string): DoctorCheck {
  let hook;
  try {
    hook = postCheckoutState(commonDir, mainRoot);
  } catch (e) {
    return { name: "post-checkout hook", required: false, ok: false, detail: (e as Error).message };
  }
  const chain = hook.chained.length > 0 ? `; runs first: ${hook.chained.join(", ")}` : "";
  const detail = !hook.installed
    ? "not installed yet (the first `spex session new` installs it)"
    : hook.ours
      ? `${hook.file}${chain}`
      : `${hook.file} is another hook, installed after spex's; the next \`spex session new\` chains it${chain}`;
  return { name: "post-checkout hook", required: false, ok: hook.installed && hook.ours, detail };
}

export function runDoctor(store: ProjectStore): DoctorReport {
  const checks: DoctorCheck[] = [];
  const gitV = version("git", ["--version"]);
  checks.push({ name: "git", required: true, ok: !!gitV, detail: gitV ?? "git is not on PATH: install git" });
  const tmuxV = version("tmux", ["-V"]);
  checks.push({ name: "tmux", required: true, ok: !!tmuxV, detail: tmuxV ?? "tmux is not on PATH: install tmux (sessions run in it)" });
  let homeOk = true;
  try {
    mkdirSync(store.home, { recursive: true });
    accessSync(store.home, constants.W_OK);
  } catch {
    homeOk = false;
  }
  checks.push({ name: "SPEX_HOME", required: true, ok: homeOk, detail: homeOk ? store.home : `${store.home} is not writable` });
  const config = loadConfig(store.root);
  for (const [name, launcher] of Object.entries(config.launchers)) {
    const command = launcher.command || builtinCommand(harnessAdapter(launcher.harness), process.env, (p) => whichSync(p));
    const word = command.trim().split(/\s+/)[0] ?? "";
    const found = whichSync(word.replace(/^['"]|['"]$/g, ""));
    checks.push({ name: `launcher ${name}`, required: false, ok: !!found, detail: found ? `${word} → ${found}` : `${word} is not on PATH (sessions with --launcher ${name} will be refused)` });
  }
  // Codex asks "Trust this folder?" in every session of an untrusted project (spex records hook trust, not this).
  if (Object.values(config.launchers).some((l) => l.harness === "codex" && whichSync((l.command || "codex").trim().split(/\s+/)[0]!.replace(/^['"]|['"]$/g, "")))) {
    const { file, level } = codexProjectTrust(store.root);
    checks.push({
      name: "codex project trust",
      required: false,
      ok: level === "trusted",
      detail: level === "trusted" ? `${store.root} is trusted in ${file}` : `Codex will ask "Trust this folder?" in each session: trust ${store.root} once in Codex, or add [projects."${store.root}"] trust_level = "trusted" to ${file}`,
    });
  }
  const checkout = findCheckout(store.root);
  if (checkout) {
    checks.push(postCheckoutCheck(checkout.commonDir, store.root));
  }

  const readings = readAll(store);
  const known = new Set(readings.flatMap((r) => (r.kind === "ok" ? [r.record.worktree_path] : [])));
  const names = new Set(readings.flatMap((r) => (r.kind === "ok" ? [r.record.tmux_session] : [])));
  // A terminal's tmux session is tagged as this project's too: its record makes it no orphan.
  for (const t of readAllTerminals(store)) if (t.kind === "ok") names.add(t.record.tmux_session);
  let worktrees: string[] = [];
  if (existsSync(config.worktreeRoot)) {
    worktrees = readdirSync(config.worktreeRoot)
      .map((n) => join(config.worktreeRoot, n))
      .filter((p) => !known.has(p));
  }
  const tmuxSessions = projectTmuxSessions(store, spexSocket(config.tmuxSocket)).filter((n) => !names.has(n));
  const retiredRecords = readings.flatMap((r) => (r.kind === "ok" && r.retired ? [r.id] : []));
  const corruptRecords = readings.flatMap((r) => (r.kind === "corrupt" ? [`${r.id}: ${r.error}`] : []));
  const receipts = readReceipts(store);
  const abandonedCreates = [
    ...receipts.receipts.filter((r) => r.owner && !ownerAlive(r.owner)).map((r) => `${r.id} (worktree ${r.worktree}, branch ${r.branch})`),
    ...receipts.stuck.map((e) => `${e.message} [${e.code}]`),
  ];
  return {
    ok: checks.every((c) => c.ok || !c.required),
    checks,
    orphans: { worktrees, tmuxSessions, retiredRecords, corruptRecords, abandonedCreates },
  };
}
