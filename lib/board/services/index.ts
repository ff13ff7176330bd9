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

export function boardServices(store: ProjectStore, env: NodeJS.ProcessEnv = process.env): BoardServices {
  const watch = new BoardWatch(store);
  const after = <T>(p: Promise<T>): Promise<T> => p.finally(() => watch.poke());
  return {
    project: basename(store.root),
    watch: (listener) => watch.subscribe(listener),
    refresh: () => watch.poke(),
    async preview(id, styled): Promise<BoardPreview> {
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
    send: (id, text) => after(act.send(store, id, text)),
    diff: (id) => act.diff(store, id),
    merge: (id, strategy, uncommitted) => after(act.merge(store, id, strategy, uncommitted)),
    stop: (id) => after(act.stop(store, id)),
    archive: (id) => after(act.archive(store, id)),
    restore: (id) => after(act.restore(store, id)),
    resume: (id) => after(act.resume(store, id)),
    resumeAll: () => after(act.resumeAll(store)),
    closeDiscards: async (id) => act.closeDiscards(store, id),
    close: (id, force) => after(act.close(store, id, force)),
    create: (form) => after(act.create(store, form)),
    async terminal(id) {
      const t = await act.terminal(store, id);
      return { message: t.message, attach: attachPlan(t.socket, t.session, env) };
    },
    attach(id) {
      const t = sessionTarget(store, id);
      return attachPlan(t.socket, t.session, env);
    },
  };
}
