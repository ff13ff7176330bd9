// What the board's screen asks of the rest of spex. The screen (lib/board/ui,
// bundled apart with Ink) holds no store, lock or tmux code of its own: every
// read and action comes through this interface, implemented over the same lib
// calls the CLI verbs make (lib/board/services). Types only, so the screen's
// bundle carries no second copy of the stateful modules.
import type { ListRow as SessionsRow } from "../../sessions";

export type { SessionRow, CorruptRow } from "../../sessions";

/** A row of `spex session ls --json`; with `--all-machines`, the machine it lives on as well. */
export type ListRow = SessionsRow & { machine?: string };

/** Everything `spex session ls --all --json` would print now, and when it was read. */
export interface BoardSnapshot {
  rows: ListRow[];
  /** Warnings the listing reported (a stuck create, a queued launch that failed). */
  warnings: string[];
  /** A listing that failed (the store unreadable for a moment): the previous rows stay. */
  error?: string;
  at: number;
}

export interface BoardPreview {
  id: string;
  /** `pane`: the live pane; `last-screen`: the copy saved at stop or archive; `none`: neither. */
  source: "pane" | "last-screen" | "none";
  live: boolean;
  /** Display text: SGR colour sequences at most, every other control made visible. */
  text: string;
}

export interface BoardDiff {
  summary: string;
  /** The unified patch, made printable; "" when the branch has no changes. */
  patch: string;
  /** Uncommitted files in the worktree (a merge refuses them unless asked to commit them). */
  uncommitted: string[];
}

/** What closing a session would throw away, shown before the y/N. */
export interface CloseDiscards {
  files: string[];
  commits: string[];
  moreCommits: boolean;
  /** Why close would refuse even when forced ("" when it would go ahead). */
  refusal: string;
}

export type MergeChoice = "merge" | "squash" | "ff-only" | "rebase";

export interface NewSessionForm {
  prompt: string;
  launcher: string;
  group: string;
  base: string;
}

/** How Enter attaches: `here` needs the board's terminal (the board steps aside); `beside` leaves it alone (tmux popup, switch). */
export interface AttachPlan {
  way: "attach" | "switch" | "popup" | "window";
  here: boolean;
  run(): number;
}

export interface BoardServices {
  /** The project's name, for the header. */
  project: string;
  /** Start watching; the listener gets a snapshot now and after every change. Returns the stop. */
  watch(listener: (s: BoardSnapshot) => void): () => void;
  /** Read the rows again now (after an action). */
  refresh(): void;
  /** The selected session's screen, with one tmux process. */
  preview(id: string, styled: boolean): Promise<BoardPreview>;
  groups(): string[];
  launchers(): { names: string[]; default: string };
  send(id: string, text: string): Promise<string>;
  diff(id: string): Promise<BoardDiff>;
  merge(id: string, strategy: MergeChoice, includeUncommitted: boolean): Promise<string>;
  stop(id: string): Promise<string>;
  archive(id: string): Promise<string>;
  restore(id: string): Promise<string>;
  resume(id: string): Promise<string>;
  closeDiscards(id: string): Promise<CloseDiscards>;
  close(id: string, force: boolean): Promise<string>;
  create(form: NewSessionForm): Promise<string>;
  /** Open a shell in the session's worktree; the plan attaches to it. */
  terminal(id: string): Promise<{ message: string; attach: AttachPlan }>;
  attach(id: string): AttachPlan;
}
