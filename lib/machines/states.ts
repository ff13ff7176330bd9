// `spex machine ls`: every configured machine probed in parallel, each
// answering for itself (a machine that does not answer is a row saying so).
import { SpexError } from "../errors";
import type { Machine } from "./list";
import { type MachineFacts, probeMachine, sameVersion, thisVersion } from "./probe";

export interface MachineState extends Machine {
  reachable: boolean;
  /** Why the machine did not answer (null when it did). */
  error: { code: string; message: string; hint: string } | null;
  facts: MachineFacts | null;
  /** The spex there is this very build. */
  current: boolean;
}

export async function machineStates(machines: Machine[]): Promise<MachineState[]> {
  return Promise.all(
    machines.map(async (m): Promise<MachineState> => {
      try {
        const facts = await probeMachine(m);
        return { ...m, reachable: true, error: null, facts, current: sameVersion(facts.spex, thisVersion()) };
      } catch (e) {
        const err = e instanceof SpexError ? { code: e.code, message: e.message, hint: e.hint } : { code: "internal_error", message: String((e as Error)?.message ?? e), hint: "" };
        return { ...m, reachable: false, error: err, facts: null, current: false };
      }
    }),
  );
}

/** One line of what a probe found: reachable or not, the spex there, OS/arch, load. */
export function describeState(s: MachineState): string {
  if (!s.reachable || !s.facts) return `unreachable (${s.error?.code ?? "machine_unreachable"})`;
  const f = s.facts;
  const spex = f.spex ? `spex ${f.spex.version}${s.current ? "" : ` (${f.spex.commit}, another build: spex machine install ${s.name})`}` : `no spex (spex machine install ${s.name})`;
  return `reachable, ${spex}, ${f.os}/${f.arch}, load ${f.load1 ?? "?"}`;
}
