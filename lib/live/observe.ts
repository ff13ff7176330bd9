// One observation of every tmux pane spex can see: list (one call per server),
// prefilter on cheap metadata, capture the survivors (one call per server),
// classify, then filter on status. With no filter that applies before the
// capture every pane is a survivor: the list and all the screens come from one
// tmux process per server.
import { captureMany, noSocketFile, serverOf } from "../tmux";
import { spexHome } from "../store";
import { classifyPane, lastVisibleLine } from "./classify";
import { listServerPanes, listServerPanesCapturing, listServerPanesCapturingAll } from "./discover";
import { takeEarlyLive } from "./early";
import { type GovernedIndex, type GovernedSession, governedIndex, isOpen } from "./governed";
import { machineName } from "./machine";
import { ProcessTree, detectRuleSet, needsProcessTree } from "./procs";
import { ProjectRoots, projectMatcher, projectSlugOf, sameMachine } from "./project";
import { ruleSetFor } from "./rules";
import { type LiveConfig, liveConfig } from "./config";
import { liveServers } from "./servers";
import type { LiveRow, LiveStatus, PaneInfo } from "./types";

export interface LiveFilters {
  openOnly?: boolean;
  /** A substring of the project path or slug, or a path (resolved to its main checkout). */
  project?: string;
  machine?: string;
  statuses?: LiveStatus[];
}

export interface LiveObservation {
  observedAt: string;
  machine: string;
  servers: string[];
  /** Panes that passed the pre-capture filters, classified (the capture scope). */
  candidates: LiveRow[];
  /** Candidates that also passed the status filter. */
  rows: LiveRow[];
  governed: GovernedIndex;
  /** Screens of the candidates by `${socket}\0${paneId}` (untrusted display text). */
  screens: Map<string, string>;
}

export interface ObserveOptions {
  /** The servers to scan; by default those of liveServers(), with every socket a running record names. */
  servers?: string[];
  /** The project config in force (read from the current folder when not given). */
  config?: LiveConfig;
  home?: string;
  machine?: string;
}

interface Candidate {
  pane: PaneInfo;
  governed: GovernedSession | undefined;
  projectPath: string | null;
  projectSlug: string;
}

/** Sockets of the sessions that should have a pane: live finds them whichever project put them where. */
function recordedSockets(governed: GovernedIndex): string[] {
  return governed.sessions.filter((s) => s.record.tmux_session && !s.record.stopped).map((s) => s.record.tmux_socket);
}

/** Rows showing a stall their session's record does not hold yet (what `live` records: lib/attention/stall-probe.ts). */
export function unrecordedStalls(obs: Pick<LiveObservation, "candidates" | "governed">): { row: LiveRow; session: GovernedSession }[] {
  const out: { row: LiveRow; session: GovernedSession }[] = [];
  for (const row of obs.candidates) {
    if (!row.stall || !row.sessionId || row.statusRule === "governed.stall") continue;
    const session = obs.governed.sessions.find((s) => s.id === row.sessionId);
    if (session && !session.record.stall) out.push({ row, session });
  }
  return out;
}

export function screenKey(socket: string, paneId: string): string {
  return `${socket}\u0000${paneId}`;
}

export async function observeLive(filters: LiveFilters = {}, opts: ObserveOptions = {}): Promise<LiveObservation> {
  const machine = opts.machine ?? machineName();
  const observedAt = new Date().toISOString();
  const governed = governedIndex(opts.home ?? spexHome());
  const servers = opts.servers ?? liveServers(process.env, opts.config ?? liveConfig(), recordedSockets(governed));
  const roots = new ProjectRoots();
  const wantProject = filters.project ? projectMatcher(filters.project) : undefined;
  const otherMachine = filters.machine !== undefined && !sameMachine(filters.machine, machine);

  const candidates: Candidate[] = [];
  const screens = new Map<string, string>();
  const tree = new ProcessTree();
  // Governed sessions the filters keep are known before listing: their screens
  // come in the same tmux call as the list, so a server costs one process.
  const keptGoverned = governed.sessions.filter(
    (g) => g.record.tmux_session && isOpen(g) && (!wantProject || wantProject(g.record.project_root, projectSlugOf(g.record.project_root, g.record.tmux_session))),
  );
  const everyPane = !filters.openOnly && !wantProject;
  for (const socket of otherMachine ? [] : servers) {
    // A server whose socket file is not there has no panes: no tmux process is started to learn that.
    if (noSocketFile(socket)) continue;
    const names = everyPane ? [] : [...new Set(keptGoverned.filter((g) => serverOf(g.record.tmux_socket) === socket).map((g) => g.record.tmux_session))];
    let panes: PaneInfo[];
    if (everyPane) {
      // The list comes before the screens: the process trees of its panes are read while tmux still captures.
      const listed = await listServerPanesCapturingAll(
        socket,
        (listedPanes) => {
          for (const pane of listedPanes) {
            if (!pane.paneDead && needsProcessTree(pane.command) && !governed.byPane(socket, pane.session)) tree.commandLines(pane.panePid);
          }
        },
        takeEarlyLive(socket),
      );
      panes = listed.panes;
      for (const [id, text] of listed.screens) screens.set(screenKey(socket, id), text);
    } else if (names.length > 0) {
      const listed = listServerPanesCapturing(socket, names);
      panes = listed.panes;
      for (const [id, text] of listed.screens) screens.set(screenKey(socket, id), text);
    } else panes = listServerPanes(socket);
    for (const pane of panes) {
      const gov = governed.byPane(socket, pane.session);
      if (filters.openOnly && !(gov && isOpen(gov))) continue;
      const projectPath = gov?.record.project_root || roots.of(pane.cwd);
      const projectSlug = roots.slugOf(projectPath, pane.session);
      if (wantProject && !wantProject(projectPath, projectSlug)) continue;
      candidates.push({ pane, governed: gov, projectPath, projectSlug });
    }
  }

  for (const socket of servers) {
    const ids = candidates.filter((c) => c.pane.socket === socket && !screens.has(screenKey(socket, c.pane.paneId))).map((c) => c.pane.paneId);
    if (ids.length === 0) continue;
    for (const [id, text] of captureMany(socket, ids)) screens.set(screenKey(socket, id), text);
  }

  const rows = candidates.map(({ pane, governed: gov, projectPath, projectSlug }) => {
    const screen = screens.get(screenKey(pane.socket, pane.paneId)) ?? "";
    const ruleSet = gov ? ruleSetFor(gov.record.harness) : pane.paneDead ? ruleSetFor("") : detectRuleSet(pane.command, pane.panePid, screen, tree);
    const verdict = classifyPane({
      paneDead: pane.paneDead,
      command: pane.command,
      screen,
      ruleSet,
      governed: gov ? { lifecycle: gov.record.status, stall: gov.record.stall } : undefined,
    });
    const row: LiveRow = {
      target: `${pane.session}:${pane.windowIndex}.${pane.paneIndex}`,
      session: pane.session,
      windowIndex: pane.windowIndex,
      paneIndex: pane.paneIndex,
      paneId: pane.paneId,
      command: pane.command,
      cwd: pane.cwd || null,
      projectPath,
      projectSlug,
      machine,
      title: pane.title,
      status: verdict.status,
      statusReason: verdict.reason,
      paneDead: pane.paneDead,
      paneActive: pane.paneActive,
      lastVisibleLine: lastVisibleLine(screen),
      isOpenSession: !!gov && isOpen(gov),
      socket: pane.socket,
      sessionId: gov?.id ?? null,
      harness: gov ? gov.record.harness || null : ruleSet.harness === "generic" ? null : ruleSet.harness,
      statusRule: verdict.rule,
      ...(verdict.stall ? { stall: verdict.stall } : {}),
    };
    return row;
  });

  const statuses = filters.statuses && filters.statuses.length > 0 ? new Set(filters.statuses) : undefined;
  return {
    observedAt,
    machine,
    servers,
    candidates: rows,
    rows: statuses ? rows.filter((r) => statuses.has(r.status)) : rows,
    governed,
    screens,
  };
}
