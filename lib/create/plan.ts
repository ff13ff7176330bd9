// Everything a create can settle before its first mutation (DESIGN.md §1.6):
// launcher and harness, spawn options, fork point, parent, group and the
// folder the agent starts in. Any refusal here leaves nothing behind.
import { type SpexConfig, loadConfig } from "../config";
import { SpexError } from "../errors";
import { type CheckoutInfo, findCheckout } from "../git/main-root";
import { detectMainBranch, resolveCommit } from "../git";
import { type HarnessAdapter, type SpawnOptions, harnessAdapter, spawnOptionsFor } from "../harness";
import { promptIsTyped } from "../launch/shell";
import { refusePromptTooLarge } from "../launch/argv-limit";
import { type ResolvedLauncher, resolveLauncher, whichSync } from "../launch/launcher";
import { checkStartDirectory } from "../launch/placement";
import { slugOf } from "../naming";
import type { ProjectStore } from "../store";
import { resolveSelector } from "../sessions";
import { spexSocket, tmuxMissing } from "../tmux";
import { refuseTooLarge } from "../comms/queue";
import { type GroupsFile, effectiveDirectory, readGroups, requireGroup } from "../coord/groups";
import type { CreateInput } from "./types";
import { type SandboxMode, type WorkspaceConfig, workspaceConfig } from "../workspace";
import { refuseInsideSandbox, refuseUnsandboxable } from "../workspace/sandbox";

export interface CreatePlan {
  config: SpexConfig;
  workspace: WorkspaceConfig;
  /** The sandbox the agent runs in: asked for, else its launcher's default ("" for none). */
  sandbox: SandboxMode;
  launcher: ResolvedLauncher;
  adapter: HarnessAdapter;
  spawn: SpawnOptions;
  /** The resolved commit of a pinned create. */
  base?: string;
  /** The source-of-truth branch an unpinned create forks from ("" when the repository has none yet). */
  mainBranch: string;
  parent: string;
  /** The group the session is filed in ("" is the root). */
  group: string;
  /** Where the agent starts, relative to the worktree ("" is its top). */
  directory: string;
  naming: { worktreeRoot: string; branchPrefix: string; slug: string };
  checkout: CheckoutInfo;
  socket: string;
}

/**
 * The group a create files its session in: the one asked for (`""` is the
 * root, deliberately), else the group of the session that created it (its
 * parent, or the calling agent's own session), else the root. A creator that
 * is no session of this project places nothing.
 */
export function placementGroup(members: ReadonlyMap<string, string>, asked: string | undefined, creators: readonly string[]): string {
  if (asked !== undefined) return asked;
  for (const id of creators) if (id && members.has(id)) return members.get(id)!;
  return "";
}

/** The groups file; a corrupt one stops only a create that names a group (the rest land in the root). */
function readGroupsForPlacement(store: ProjectStore, named: boolean): GroupsFile {
  try {
    return readGroups(store, { pruneAbsent: false });
  } catch (e) {
    if (!named && e instanceof SpexError && e.code === "groups_corrupt") return { version: 1, groups: [], members: {} };
    throw e;
  }
}

/** A prompt of blanks alone says nothing to the agent: refused like an empty one, by every front (CLI, MCP, HTTP). */
export function refuseBlankPrompt(prompt: string): void {
  if (prompt.trim() !== "") return;
  throw new SpexError("usage", prompt ? "the prompt is only whitespace" : "the prompt is empty", { hint: "say what the agent should do", exitCode: 2, httpStatus: 400 });
}

export async function planCreate(store: ProjectStore, input: CreateInput): Promise<CreatePlan> {
  refuseBlankPrompt(input.prompt);
  refuseInsideSandbox();
  const config = loadConfig(store.root);
  // The workspace keys too: a bad one refuses here, before anything is made.
  const workspace = workspaceConfig(store.root);
  const launcher = resolveLauncher(config, input.launcher);
  const sandbox: SandboxMode = input.sandbox === "off" ? "" : (input.sandbox ?? workspace.sandbox[launcher.name] ?? "");
  // macOS, or no usable bubblewrap: refused before anything is made.
  refuseUnsandboxable(sandbox);
  const adapter = harnessAdapter(launcher.harness);
  const spawn = spawnOptionsFor(adapter.name, { model: input.model, effort: input.effort });
  // A prompt typed into a shell is a message: the message limits apply. Any
  // other is one argv operand, even for --no-launch (the first launch passes it).
  if (promptIsTyped(launcher.harness, launcher.command)) refuseTooLarge(input.prompt);
  else refusePromptTooLarge(input.prompt, [launcher.command, ...adapter.launchArgs({ nativeId: "", ...spawn })]);
  let base: string | undefined;
  if (input.base !== undefined && input.base !== "") {
    base = await resolveCommit(store.root, input.base);
    if (!base) {
      throw new SpexError("base_unresolvable", `"${input.base}" names no commit in ${store.root}`, {
        hint: "pass a branch, tag or commit that `git rev-parse` can resolve in the main checkout",
        httpStatus: 400,
      });
    }
  }
  if (!input.noLaunch && !whichSync("tmux")) {
    throw tmuxMissing("or create with --no-launch");
  }
  // The fork point unless pinned; a configured mainBranch that does not exist is refused here (config_invalid).
  const mainBranch = detectMainBranch(store.root, config.mainBranch);
  const parent = input.parent ? resolveSelector(store, input.parent, input.cwd).id : "";
  // An unknown group refuses before anything is made.
  const asked = input.group === undefined ? undefined : requireGroup(store, input.group);
  const groups = readGroupsForPlacement(store, asked !== undefined && asked !== "");
  const group = placementGroup(new Map(Object.entries(groups.members)), asked, [parent, input.creator ?? ""]);
  const directory = input.directory !== undefined && input.directory !== "" ? checkStartDirectory(input.directory, store.root) : effectiveDirectory(groups.groups, group);
  const checkout = findCheckout(store.root);
  if (!checkout) throw new SpexError("not_a_git_repo", `${store.root} is not a git checkout`, { hint: "run spex inside a repository" });
  return {
    config,
    workspace,
    sandbox,
    launcher,
    adapter,
    spawn,
    base,
    mainBranch,
    parent,
    group,
    directory,
    naming: { worktreeRoot: config.worktreeRoot, branchPrefix: config.branchPrefix, slug: slugOf(input.prompt) },
    checkout,
    socket: spexSocket(config.tmuxSocket),
  };
}
