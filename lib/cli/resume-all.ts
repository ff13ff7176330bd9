// What `spex session resume --all` prints for a person: one line of totals,
// then a row per session (its project too when more than one is listed).
import { basename } from "node:path";
import type { ResumeAllResult, ResumeEntry } from "../teardown/resume-all";
import { formatTable, printable } from "./output";

function outcomeWord(e: ResumeEntry, dryRun: boolean): string {
  if (e.outcome === "failed") return `failed: ${e.error?.code ?? "error"}`;
  if (e.outcome === "skipped") return "skipped: already starting, running or queued";
  if (dryRun) return e.decision === "launch" ? "would launch" : `would queue #${e.queuePosition}`;
  if (e.outcome === "launched") return e.ready === false ? "launched (not ready yet)" : "launched";
  return e.queuePosition !== null ? `queued #${e.queuePosition}` : "queued";
}

export function renderResumeAll(result: ResumeAllResult): string {
  const s = result.summary;
  const head = result.dryRun
    ? `resume --all (dry run): ${s.selected} to resume (${result.reasons.join(", ")}); would launch ${s.planned.launch}, queue ${s.planned.queue}${s.failed ? `, refuse ${s.failed}` : ""}\n`
    : `resume --all: ${s.selected} to resume (${result.reasons.join(", ")}); launched ${s.launched}, queued ${s.queued}, failed ${s.failed}${s.skipped ? `, skipped ${s.skipped}` : ""}\n`;
  if (result.entries.length === 0) return head;
  const projects = new Set(result.entries.map((e) => e.project)).size > 1;
  const rows = result.entries.map((e) => [
    e.shortId,
    ...(projects ? [basename(e.project)] : []),
    e.reason,
    outcomeWord(e, result.dryRun) + (e.noted ? ", noted" : ""),
    printable(e.label),
  ]);
  let text = head + formatTable(["ID", ...(projects ? ["PROJECT"] : []), "REASON", "OUTCOME", "LABEL"], rows);
  for (const e of result.entries) if (e.error && e.outcome === "failed") text += `  ${e.shortId}: ${printable(e.error.message)}\n`;
  return text;
}
