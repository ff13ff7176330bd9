// `spex session show` as a function: one session's detail (full record, full
// prompt, its screen now or the last one saved), as the CLI prints it with --json and the MCP tool
// session_show answers it.
import { publicRecord, readSession } from "../record";
import { refreshUsage } from "../attention/usage";
import { type BudgetView, budgetView } from "../attention/enforce";
import { type SessionDetail, detailOf, readSessionScreen, resolveSelector } from "../sessions";
import type { ProjectStore } from "../store";
import { type WorkspaceDetail, workspaceDetail } from "../workspace/detail";

export interface ShownSession {
  detail: SessionDetail;
  /** The pane's screen now, when the session has a pane (display text); null without one. */
  screen: string | null;
  /** Its setup, included files, ports and sandbox (lib/workspace); null for a corrupt record. */
  workspace: WorkspaceDetail | null;
  /** Its budget with what is spent of it; null without one (lib/attention/enforce). */
  budget: BudgetView | null;
  /** The detail as one JSON object: the row's fields, then the full note, prompt, record, screen and last screen. */
  json: Record<string, unknown>;
}

export async function showSession(store: ProjectStore, selector: string): Promise<ShownSession> {
  let reading = resolveSelector(store, selector);
  // A launch whose launcher died shows as what it became, not as starting for good.
  if (reading.kind === "ok" && reading.pending) {
    // Read again whoever settled it: this reader, or one running beside it since the read above.
    // Settling is loaded only then: it brings the launch machinery.
    const { settleFence } = await import(/* webpackMode: "eager" */ "../launch/settle");
    await settleFence(store, reading.id);
    reading = readSession(store, reading.id) as typeof reading;
  }
  // The detail counts what the transcript holds now (only the bytes past the last read).
  if (reading.kind === "ok") await refreshUsage(store, publicRecord(reading.record, reading.pending)).catch(() => undefined);
  const detail = detailOf(store, reading)!;
  // A session with a pane shows what it shows now; the saved last screen stays for the one without.
  const now = reading.kind === "ok" ? readSessionScreen(store, reading) : undefined;
  const screen = now?.source === "pane" ? now.screen : null;
  const workspace = reading.kind === "ok" ? workspaceDetail(store, reading.record) : null;
  const budget = reading.kind === "ok" ? budgetView(store, reading.id) : null;
  return { detail, screen, workspace, budget, json: { ...detail.row, note: detail.note, prompt: detail.prompt, record: detail.record, screen, lastScreen: detail.lastScreen, workspace, budget } };
}
