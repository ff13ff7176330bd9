// A session's lifecycle actions from its panel: stop, resume, archive (and
// unarchive), close. Close first asks the backend what it would throw away
// (GET …/close-plan): with nothing to lose it is a plain confirm; with
// uncommitted files or commits not on the main branch the confirm names them
// ("discard 2 commits and 1 file") and only then does the close force. What
// a close did stays on screen after its panel goes (outcomes.ts).
import { api, sessionPath } from "./api";
import { notRemoving, outcome, removing } from "./outcomes";

export type Report = (o: string | Error) => void;

interface Refusal {
  code: string;
  message: string;
  hint?: string;
}

interface ClosePlan {
  discards?: { files: string[]; commits: { sha: string; subject: string }[]; moreCommits: boolean };
  refusal: Refusal | null;
  blocked?: Refusal;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** One action on a session, asked first when `ask` says what it does ("%s" is the session). */
export async function act(id: string, label: string, verb: string, ask: string | null, body: Record<string, unknown>, report: Report): Promise<Record<string, unknown> | undefined> {
  if (ask && !confirm(ask.replace("%s", label))) return undefined;
  report(`${verb}…`);
  try {
    const r = await api<Record<string, unknown>>("POST", sessionPath(id, `/${verb}`), body);
    report(verb === "send" ? `message ${r.messageId}: ${r.state}${r.reason ? ` (${r.reason})` : ""}` : `${verb}: done`);
    return r;
  } catch (e) {
    report(e as Error);
    return undefined;
  }
}

/** Close, saying first what a forced close would throw away. */
export async function closeWithPlan(id: string, label: string, report: Report): Promise<void> {
  let plan: ClosePlan;
  try {
    plan = await api<ClosePlan>("GET", sessionPath(id, "/close-plan"));
  } catch (e) {
    report(e as Error);
    return;
  }
  if (plan.blocked) {
    report(new Error(`${plan.blocked.message}${plan.blocked.hint ? `; ${plan.blocked.hint}` : ""} [${plan.blocked.code}]`));
    return;
  }
  const d = plan.discards ?? { files: [], commits: [], moreCommits: false };
  const lose = d.files.length + d.commits.length > 0;
  let ask: string;
  if (!lose) ask = `Close ${label} for good? Its worktree, branch and record are removed.`;
  else {
    const commits = `${d.moreCommits ? "more than " : ""}${plural(d.commits.length, "commit")}`;
    const parts = [d.commits.length ? commits : "", d.files.length ? plural(d.files.length, "file") : ""].filter(Boolean).join(" and ");
    const list = [...d.commits.slice(0, 5).map((c) => `  ${c.sha.slice(0, 8)} ${c.subject}`), ...d.files.slice(0, 5).map((f) => `  ${f}`)].join("\n");
    ask = `Close ${label} and discard ${parts}? They are not on the main branch and cannot be brought back:\n${list}`;
  }
  if (!confirm(ask)) return;
  report("closing…");
  removing(id);
  try {
    await api("POST", sessionPath(id, "/close"), lose ? { force: true } : {});
    report("closed");
    outcome(`closed ${label}${lose ? ` (discarded ${[d.commits.length ? plural(d.commits.length, "commit") : "", d.files.length ? plural(d.files.length, "file") : ""].filter(Boolean).join(" and ")})` : ""}`);
  } catch (e) {
    notRemoving(id);
    report(e as Error);
  }
}
