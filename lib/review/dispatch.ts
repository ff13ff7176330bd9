// Merge dispatch (seed 001, "the manager's merge dispatch prompt"): when
// `spex session merge` refuses (a conflict, a main branch that kept moving),
// the work can only land by hand, and the hand that knows the work is the
// session's own agent. `merge --by-agent` sends it, through the ordinary send
// path, a prompt to land its own branch on the verified base: bring the base
// in (rebase or merge), resolve, run the tests, land with `spex session merge`;
// then, only once the base advanced and only when the task is settled, its
// worktree no longer needed and nothing is left for a person, close itself
// with `spex session done --propose close`; otherwise declare what is true.
import { SpexError } from "../errors";
import { shortId } from "../naming";
import { type SendResult, type SenderInput, sendMessage } from "../comms/send";
import { lastMergeEvent } from "../comms/timeline";
import type { ProjectStore } from "../store";
import { isAncestor, reviewFacts } from "./facts";
import { mergeTrees } from "./strategies";
import { shellWord } from "../tmux/quote";

export interface DispatchOptions {
  /** Land on this branch instead of the main branch. */
  into?: string;
  /** Ask for a rebase (a line history) rather than "rebase or merge". */
  rebase?: boolean;
  from: SenderInput;
}

export interface DispatchResult {
  id: string;
  label: string;
  branch: string;
  into: string;
  /** The base the agent is asked to land on, as verified now. */
  intoHead: string;
  /** Files git reports in conflict between the branch and the base now ([] when it would merge cleanly). */
  conflicts: string[];
  /** False when there was nothing to hand over: the branch is already on the base. */
  dispatched: boolean;
  /** Why nothing was sent (`already_landed`); "" when the prompt was sent. */
  reason: string;
  /** The message as `session send --json` answers it; null when nothing was sent. */
  message: SendResult | null;
}

/** A command as a Markdown code span: fenced with two backticks when it holds one (a branch may be named with it). */
function code(command: string): string {
  return command.includes("`") ? `\`\` ${command} \`\`` : `\`${command}\``;
}

/** The prompt, in the words the agent acts on (display text for it: a prose instruction, never a command line). */
export function dispatchPrompt(p: { id: string; branch: string; into: string; intoHead: string; conflicts: string[]; rebase: boolean }): string {
  const id8 = shortId(p.id, 8);
  const head = p.intoHead.slice(0, 12);
  // The message stays far below the 8 KiB a message may hold, whatever the file names.
  const listed = p.conflicts.slice(0, 20).join(", ");
  const cut = listed.length > 1500 ? `${listed.slice(0, 1500)}…` : listed;
  const conflicts = p.conflicts.length > 0 ? ` git reports conflicts in ${cut}${p.conflicts.length > 20 && cut === listed ? ", …" : ""}.` : "";
  // A branch name may hold $(…), backticks, ; and | (git allows them; a cloned repository's default branch is
  // whoever made it): the commands the agent is told to run name it as one quoted word.
  const into = shellWord(p.into);
  const bring = p.rebase
    ? `rebase your branch onto it (${code(`git rebase ${into}`)}; keep a line history, do not merge)`
    : `bring it into your branch: ${code(`git rebase ${into}`)}, or ${code(`git merge ${into}`)} if your history is better kept with a merge`;
  return [
    `Land your own branch ${p.branch} on ${p.into}: \`spex session merge\` could not land it for you.${conflicts}`,
    `1. In this worktree, with ${p.into} as it is now (${head}), ${bring}. Resolve every conflict, run the tests until they pass, and commit.`,
    `2. Land it with \`spex session merge ${id8}\`, and check that ${p.into} now holds your work (${code(`git merge-base --is-ancestor HEAD ${into}`)}). If ${p.into} moved meanwhile, repeat from 1.`,
    `3. Once ${p.into} has advanced with your work: only if your task is settled, this worktree is no longer needed and nothing is left for a person to decide or follow up, end with \`spex session done --propose close --note "<what landed>"\`.`,
    `Otherwise declare what is true instead: \`spex session done --propose merge --note "…"\` when a person should look before it lands, \`spex session park --note "…"\` when you are blocked, \`spex session ask --note "…"\` when a person must decide.`,
  ].join("\n");
}

export async function dispatchMerge(store: ProjectStore, id: string, opts: DispatchOptions): Promise<DispatchResult> {
  const f = await reviewFacts(store, id, opts.into);
  const base = { id: f.id, label: f.label, branch: f.branch, into: f.into, intoHead: f.intoHead };
  if (!f.hasWorktree) {
    throw new SpexError("record_retired", `session ${shortId(id, 8)} is retired: its worktree ${f.record.worktree_path} is gone, so its agent has nowhere to land the work`, {
      hint: `land ${f.branch} by hand, or close the session: spex session close ${shortId(id, 8)}`,
    });
  }
  if (f.record.harness === "shell") {
    throw new SpexError("agent_required", `session ${shortId(id, 8)} runs a shell, not an agent: a prompt would be typed as commands`, {
      hint: `land ${f.branch} yourself (rebase or merge ${f.into} into it in ${f.record.worktree_path}, then \`spex session merge ${shortId(id, 8)}\`)`,
      details: { harness: f.record.harness },
    });
  }
  const landed = lastMergeEvent(store, id);
  const onBase = isAncestor(store.root, f.head, f.intoHead) || (landed !== undefined && landed.into === f.into && landed.branchHead === f.head && isAncestor(store.root, landed.after, f.intoHead));
  if (onBase) return { ...base, conflicts: [], dispatched: false, reason: "already_landed", message: null };
  // A fast-forward has nothing to resolve; otherwise git says now which files conflict (no ref or checkout moves).
  const conflicts = isAncestor(store.root, f.intoHead, f.head) ? [] : mergeTrees(store.root, f.intoHead, f.head).conflicts;
  const text = dispatchPrompt({ id, branch: f.branch, into: f.into, intoHead: f.intoHead, conflicts, rebase: opts.rebase === true });
  const message = await sendMessage(store, { target: id, from: opts.from, text, keys: [] });
  return { ...base, conflicts, dispatched: true, reason: "", message };
}

/** The hint a refused merge gives: the landing can be handed to the session's agent. */
export function dispatchHint(id: string): string {
  return `or hand the landing to its agent: spex session merge ${shortId(id, 8)} --by-agent`;
}
