// The board's services over the lib calls the CLI verbs make (see
// ../model/services.ts for why the screen gets them passed in).
import { basename } from "node:path";
import { printable, printableStyled } from "../../cli/output";
import { listGroups } from "../../coord/groups";
import { loadConfig } from "../../config";
import { SpexError } from "../../errors";
import { readSession } from "../../record";
import { readSessionScreenAsync } from "../../sessions";
import type { ProjectStore } from "../../store";
import { hasSession } from "../../tmux";
import { attachTerminal } from "../../tmux/attach";
import type { AttachPlan, BoardPreview, BoardServices } from "../model/services";
import * as act from "./actions";
import { BoardWatch } from "./watch";
import { RemoteRows } from "./machines";
import { machineName } from "../../live/machine";
import { readMachines } from "../../machines";
import { shellWord } from "../../tmux/quote";

/** Enter: the session's tmux session, attached the way `spex session attach` does (never nesting a client). */
function attachPlan(socket: string, session: string, env: NodeJS.ProcessEnv): AttachPlan {
  const inside = Boolean(env.TMUX);
  return {
    // Outside tmux the attach takes this terminal; inside, tmux switches the client or opens a popup.
    way: inside ? "switch" : "attach",
    here: !inside,
    run: () => attachTerminal(socket, session).code,
  };
}

function sessionTarget(store: ProjectStore, id: string): { socket: string; session: string } {
  const reading = readSession(store, id);
  if (reading.kind !== "ok") throw new SpexError("record_corrupt", `session ${id.slice(0, 8)} has no usable record`, { hint: "see `spex session show`" });
  const { tmux_socket: socket, tmux_session: session } = reading.record;
  if (!session || !hasSession(socket, session)) {
    throw new SpexError("session_not_running", `session ${id.slice(0, 8)} has no running tmux session`, { hint: "press r to resume it" });
  }
  return { socket, session };
}

/**
 * A key on a row of another machine (`--all-machines`): the board acts on this
 * machine's sessions only, so it names the command that does it there.
 */
export function elsewhere(machine: string, id: string, verb: string): SpexError {
  // One footer line: the command first, so a narrow terminal cuts the why, not the what.
  // Both values came from outside this process (machines.json, the other machine's answer): each is one shell word.
  return new SpexError("board_remote_session", `${id.slice(0, 8)} lives on machine ${machine}`, {
    hint: `run it there: spex session ${verb} --machine ${shellWord(machine)} ${shellWord(id.slice(0, 8))} (the board acts on this machine's sessions)`,
  });
}

export interface BoardServiceOptions {
  /** `--all-machines`: every machine of `spex machine ls` listed too, each row saying its machine. */
  allMachines?: boolean;
}

export function boardServices(store: ProjectStore, env: NodeJS.ProcessEnv = process.env, opts: BoardServiceOptions = {}): BoardServices {
  const remote = opts.allMachines ? new RemoteRows(readMachines()) : undefined;
  const watch = new BoardWatch(store, opts.allMachines ? { machine: machineName(env), remote } : {});
  // An action answers once the list shows its result (its footer line and the rows then agree).
  const after = <T>(p: Promise<T>): Promise<T> => p.finally(() => watch.settled());
  /** Run `here` for a session of this machine; refuse one of another machine, naming the verb that acts there. */
  const local = <T>(id: string, verb: string, here: () => T): T => {
    const m = remote?.machineOf(id);
    if (m) throw elsewhere(m.name, id, verb);
    return here();
  };
  const localAsync = <T>(id: string, verb: string, here: () => Promise<T>): Promise<T> => {
    const m = remote?.machineOf(id);
    return m ? Promise.reject(elsewhere(m.name, id, verb)) : here();
  };
  return {
    project: basename(store.root),
    watch: (listener) => watch.subscribe(listener),
    refresh: () => watch.poke(),
    async preview(id, styled): Promise<BoardPreview> {
      const m = remote?.machineOf(id);
      if (m) {
        // Another machine's screen: read there, without colours (one ssh command a refresh).
        const text = await remote!.screen(m, id).catch(() => "");
        return { id, source: text ? "pane" : "none", live: text !== "", text };
      }
      const reading = readSession(store, id);
      if (reading.kind !== "ok") return { id, source: "none", live: false, text: "" };
      const s = await readSessionScreenAsync(store, reading, { styled });
      // Pane text is display text (DESIGN.md §1.10): colours at most, every other control made visible.
      const text = s.styled ? printableStyled(s.screen) : printable(s.screen);
      return { id, source: s.source, live: s.live, text };
    },
    groups: () => listGroups(store).map((g) => g.path),
    launchers() {
      const config = loadConfig(store.root);
      return { names: Object.keys(config.launchers), default: config.defaultLauncher };
    },
    send: (id, text) => localAsync(id, "send", () => after(act.send(store, id, text))),
    diff: (id) => localAsync(id, "diff", () => act.diff(store, id)),
    merge: (id, strategy, uncommitted) => localAsync(id, "merge", () => after(act.merge(store, id, strategy, uncommitted))),
    stop: (id) => localAsync(id, "stop", () => after(act.stop(store, id))),
    archive: (id) => localAsync(id, "archive", () => after(act.archive(store, id))),
    restore: (id) => localAsync(id, "archive --restore", () => after(act.restore(store, id))),
    resume: (id) => localAsync(id, "resume", () => after(act.resume(store, id))),
    // This project's own sessions, as `spex session resume --all --repo .` (another machine's rows are that machine's to resume).
    resumeAll: () => after(act.resumeAll(store)),
    closeDiscards: (id) => localAsync(id, "close", async () => act.closeDiscards(store, id)),
    close: (id, force) => localAsync(id, "close", () => after(act.close(store, id, force))),
    create: (form) => after(act.create(store, form)),
    terminal: (id) =>
      localAsync(id, "attach", async () => {
        const t = await act.terminal(store, id);
        return { message: t.message, attach: attachPlan(t.socket, t.session, env) };
      }),
    attach: (id) =>
      local(id, "attach", () => {
        const t = sessionTarget(store, id);
        return attachPlan(t.socket, t.session, env);
      }),
  };
}
