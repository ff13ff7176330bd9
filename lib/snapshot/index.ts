// The snapshot (docs/snapshot.md): one versioned document with everything an
// orchestrator reads before it acts — every session row, groups, tasks,
// reservations, terminals, the messages not yet handed over, and the machine.
// `spex snapshot --json` and `GET /api/snapshot` both answer with buildSnapshot.
import { arch, cpus, hostname, loadavg, platform } from "node:os";
import { type MessageView, listQueuedMessages } from "../comms";
import { loadConfig } from "../config";
import { type GroupView, type LeaseView, type TaskView, listGroups, listReservations, listTasks } from "../coord";
import { listRowsSettled } from "../launch/stale";
import { machineName } from "../live/machine";
import type { ListRow } from "../sessions";
import type { ProjectStore } from "../store";
import { type TerminalListRow, listTerminals } from "../terminals";
import { spexSocket } from "../tmux";
import { SpexError } from "../errors";
import { VERSION } from "../version";

/** A reader of one version may misread a document of another: a change such a reader would misread bumps it. */
export const SNAPSHOT_SCHEMA = "spex.snapshot.v1";

export interface MachineFacts {
  name: string;
  hostname: string;
  platform: string;
  arch: string;
  cpus: number;
  load: [number, number, number];
  spexVersion: string;
  tmuxSocket: string;
}

/** A part of the snapshot whose file cannot be read: the part is empty and this says why. */
export interface CorruptPart {
  part: "groups" | "tasks" | "reservations";
  /** The refusal the part's own verb gives (`groups_corrupt`, `coord_corrupt`). */
  code: string;
  file: string;
  error: string;
}

/** The codes a coordination file that cannot be parsed is refused with: a fact about that file, not a failure of the reader. */
const CORRUPT_CODES = new Set(["groups_corrupt", "coord_corrupt"]);

export interface Snapshot {
  schemaVersion: typeof SNAPSHOT_SCHEMA;
  generatedAt: string;
  project: { root: string; key: string };
  machine: MachineFacts;
  sessions: ListRow[];
  groups: GroupView[];
  tasks: TaskView[];
  reservations: LeaseView[];
  terminals: TerminalListRow[];
  messages: MessageView[];
  /** The parts left empty because their file cannot be read; [] when every part was read. */
  corrupt: CorruptPart[];
}

export function machineFacts(store: ProjectStore): MachineFacts {
  const [l1, l5, l15] = loadavg();
  return {
    name: machineName(),
    hostname: hostname(),
    platform: platform(),
    arch: arch(),
    cpus: cpus().length,
    load: [l1 ?? 0, l5 ?? 0, l15 ?? 0],
    spexVersion: VERSION,
    tmuxSocket: spexSocket(loadConfig(store.root).tmuxSocket),
  };
}

export async function buildSnapshot(store: ProjectStore): Promise<Snapshot> {
  const generatedAt = new Date().toISOString();
  // The rows of `ls --json --all`: archived ones included, a launch that died waiting settled first.
  const sessions = await listRowsSettled(store);
  // One unreadable coordination file empties its part and is named in `corrupt`; the rest is answered.
  // Any other failure (a transient read error) still fails the snapshot: it must not read as empty.
  const corrupt: CorruptPart[] = [];
  const part = <T>(name: CorruptPart["part"], read: () => T[]): T[] => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof SpexError) || !CORRUPT_CODES.has(e.code)) throw e;
      corrupt.push({ part: name, code: e.code, file: String(e.details?.file ?? ""), error: e.message });
      return [];
    }
  };
  const groups = part("groups", () => listGroups(store));
  const tasks = part("tasks", () => listTasks(store));
  const reservations = part("reservations", () => listReservations(store));
  return {
    schemaVersion: SNAPSHOT_SCHEMA,
    generatedAt,
    project: { root: store.root, key: store.key },
    machine: machineFacts(store),
    sessions,
    groups,
    tasks,
    reservations,
    terminals: listTerminals(store),
    messages: listQueuedMessages(store),
    corrupt,
  };
}
