import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { currentProject, sessionIdFromEnv } from "../../lib/store";
import { exitCodeOf, parseUntil, waitOnSelectors } from "../../lib/comms";

export class SessionWaitCommand extends RemotableCommand {
  static paths = [["session", "wait"]];
  static remote: RemoteSpec = { selectors: "selectors", caller: "--cursor" };
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "wait for a session's next event, for it to be at rest, or for a status",
    details: `
      Parks until the next event on a target's timeline (a state change or a message); with \`--idle\` until the target is at rest (idle or awaiting review, nothing queued for it, and the turn of the last message reported); with \`--until S[,S]\` until it shows one of those display statuses (as \`spex session ls\` shows them). With several targets, any one suffices (\`--all\`: every one). Without a selector it waits on every session of the project but the caller's own; a session cannot wait on itself (\`wait_self\`).

      Waits are cursor-backed: a caller with an identity (SPEX_SESSION_ID, or \`--cursor NAME\`) resumes exactly after the last event it was given, so nothing that happened between two waits is missed. A message the caller itself sent never wakes it.

      The wait ends \`died\` when a target's agent, pane or tmux session is gone while its record says it runs (killed, crashed): it does not wait out the timeout.

      The wait also ends \`stalled\` when a target is held up by its API: a rate or usage limit (\`rate_limited\`) or a login or API key it needs (\`auth_required\`), reported by its hook or seen on its pane (the wait looks at running targets' panes every 2 s); the session's \`stall\` field names which.

      Exit 0: reached (also when a target stopped, reported as \`stopped\`); 1: timed out; 2: the store or the session is gone (\`gone\`), a target died (\`died\`) or stalled (\`stalled\`); with \`--json\` the \`outcome\` field tells them apart.
    `,
    examples: [
      ["Wait for a child to finish its turn", "spex session wait 3f2a --idle --timeout 600"],
      ["Next event on either of two sessions, as JSON", "spex session wait auth-fixer docs-writer --json"],
      ["Until it asks a question or proposes a merge", "spex session wait 3f2a --until asking,review --timeout 900"],
    ],
  });

  selectors = Option.Rest({ name: "SEL" });
  timeout = Option.String("--timeout", { description: "Give up after this many seconds (exit 1)", validator: t.cascade(t.isNumber(), [t.isAtLeast(0)]) });
  idle = Option.Boolean("--idle", false, { description: "Wait until the target is at rest" });
  until = Option.String("--until", { description: "Wait until the target shows one of these display statuses (comma-separated)" });
  all = Option.Boolean("--all", false, { description: "With --idle or --until and several targets: wait for every one" });
  cursor = Option.String("--cursor", { description: "Keep the resume cursor under this name (default: SPEX_SESSION_ID)" });

  async execute(): Promise<number> {
    const until = this.until === undefined ? undefined : parseUntil(this.until);
    const own = sessionIdFromEnv();
    const store = currentProject();
    const { probeStalls } = await import("../../lib/attention/stall-probe");
    const result = await waitOnSelectors(store, {
      selectors: this.selectors,
      idle: this.idle,
      until,
      all: this.all,
      timeoutMs: this.timeout === undefined ? undefined : this.timeout * 1000,
      cursorKey: this.cursor ?? own,
      self: { id: own, name: this.cursor },
      probe: (ids) => probeStalls(store, ids),
    });
    if (this.json) writeJson(this.context.stdout, result);
    else {
      const secs = (result.waitedMs / 1000).toFixed(1);
      if (result.outcome === "timed_out") this.context.stdout.write(`timed out after ${secs} s\n`);
      else if (result.outcome === "gone") this.context.stdout.write(`gone: the store or session no longer exists\n`);
      else if (result.outcome === "died") {
        for (const s of result.sessions.filter((x) => x.died)) this.context.stdout.write(printable(`died: ${s.shortId} ${s.label}: ${s.diedReason}`) + "\n");
      } else if (result.outcome === "stalled") {
        for (const s of result.sessions.filter((x) => x.stall)) this.context.stdout.write(printable(`stalled: ${s.shortId} ${s.label}: ${s.stall}${s.note ? ` (${s.note})` : ""}`) + "\n");
      } else {
        for (const e of result.events) {
          const what = e.kind === "state" ? `${e.status}${e.proposal ? ` (proposes ${e.proposal})` : ""}` : e.kind === "message_in" ? `message ${e.messageId} in` : e.kind === "merge" ? `merged into ${e.into} (${e.landing})` : `message ${e.messageId} out`;
          this.context.stdout.write(`${e.session.slice(0, 8)} #${e.seq} ${what}\n`);
        }
        for (const s of result.sessions) {
          if (this.idle || until || result.events.some((e) => e.session === s.id)) {
            this.context.stdout.write(printable(`${s.shortId} ${s.label}: ${s.stopped ? "stopped" : s.display}${s.atRest ? " (at rest)" : ""}`) + "\n");
          }
        }
      }
    }
    return exitCodeOf(result.outcome);
  }
}
