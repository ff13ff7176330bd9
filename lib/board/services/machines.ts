// `spex board --all-machines`: the sessions of every machine of `spex machine
// ls`, beside this machine's. Each machine is asked what `spex session ls --all
// --json` says in its repository (the one `spex machine add --repo` named),
// over ssh, every few seconds and off the key path: a slow or unreachable
// machine delays nobody's frame, it shows as a warning and its last rows stay.
import { type Machine, parseRemoteJson, runSpexOn } from "../../machines";
import { remoteRefusal } from "../../machines/fleet";
import { printable } from "../../cli/output";
import type { ListRow } from "../model/services";
import { remoteRow } from "./remote-row";

/** One round of asking every machine this often (an ssh connection is shared, so a round is one command per machine). */
const ROUND_MS = 4000;

const repoArgs = (m: Machine) => (m.repo ? ["--repo", m.repo] : []);

export class RemoteRows {
  private rows = new Map<string, ListRow[]>();
  private errors = new Map<string, string>();
  /** Session id → the machine it lives on, for the actions and the preview. */
  private where = new Map<string, Machine>();
  private timer: NodeJS.Timeout | undefined;
  private asking = false;

  constructor(private machines: Machine[]) {}

  /** Ask now and every round after; `changed` runs when a machine's answer differs from its last. */
  start(changed: () => void): void {
    if (this.timer || this.machines.length === 0) return;
    const round = async () => {
      if (this.asking) return;
      this.asking = true;
      try {
        const before = JSON.stringify([[...this.rows], [...this.errors]]);
        await Promise.all(this.machines.map((m) => this.ask(m)));
        if (JSON.stringify([[...this.rows], [...this.errors]]) !== before) changed();
      } finally {
        this.asking = false;
      }
    };
    void round();
    this.timer = setInterval(() => void round(), ROUND_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Every machine's rows, in the order of `spex machine ls`. */
  all(): ListRow[] {
    return this.machines.flatMap((m) => this.rows.get(m.name) ?? []);
  }

  warnings(): string[] {
    return [...this.errors].map(([name, message]) => `machine ${name}: ${message}`);
  }

  /** The machine of a session the board lists from another machine, or undefined for this machine's own. */
  machineOf(id: string): Machine | undefined {
    return this.where.get(id);
  }

  /** A remote session's screen, read there by `spex session read` (one ssh command). */
  async screen(m: Machine, id: string): Promise<string> {
    const r = await runSpexOn(m, ["session", "read", ...repoArgs(m), id]);
    if (r.code !== 0) throw new Error(r.stderr.trim() || `exit ${r.code}`);
    return printable(r.stdout.toString("utf8"));
  }

  private async ask(m: Machine): Promise<void> {
    try {
      const answer = parseRemoteJson(m, await runSpexOn(m, ["session", "ls", "--all", "--json", ...repoArgs(m)]));
      const refusal = remoteRefusal(m, answer);
      if (refusal) throw refusal;
      if (!Array.isArray(answer)) throw new Error("its answer was not a list of sessions");
      // Each row checked and made whole (remote-row.ts): one without a session id is left out, and counted below.
      const rows = answer.flatMap((r) => remoteRow(r, m.name) ?? []);
      for (const [id, at] of this.where) if (at.name === m.name) this.where.delete(id);
      for (const r of rows) this.where.set(r.id, m);
      this.rows.set(m.name, rows);
      const dropped = answer.length - rows.length;
      if (dropped > 0) this.errors.set(m.name, `${dropped} of its rows ${dropped === 1 ? "has" : "have"} no valid session id (not shown)`);
      else this.errors.delete(m.name);
    } catch (e) {
      // The last rows stay (marked by the warning): a machine that stops answering is not a fleet that vanished.
      this.errors.set(m.name, (e as Error).message);
    }
  }
}
