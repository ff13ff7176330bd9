// The board: header, the session list, a panel (the selected session's screen,
// or the dialog of the key just pressed), footer. State lives in small hooks;
// every read and action goes through the services (../../model/services.ts).
import { Box, useApp } from "ink";
import { useCallback, useEffect, useMemo, useState } from "react";
import { type Key, KeyRouter, useCurrent, useKeyRouter } from "../hooks/useKeys";
import { shownColumns } from "../../model/columns";
import type { AttachPlan, BoardDiff, BoardServices, ListRow, MergeChoice, NewSessionForm as Form } from "../../model/services";
import { useBoardView } from "../hooks/useBoardView";
import { useNow } from "../hooks/useNow";
import { usePreview } from "../hooks/usePreview";
import { useSnapshot } from "../hooks/useSnapshot";
import { type Size, useTerminalSize } from "../hooks/useTerminalSize";
import { renderFault } from "../faults";
import { ColorContext } from "../theme";
import { ConfirmDialog } from "./ConfirmDialog";
import { DiffView } from "./DiffView";
import { Footer, type FooterMessage } from "./Footer";
import { GroupPicker } from "./GroupPicker";
import { Header } from "./Header";
import { HelpView } from "./HelpView";
import { MergeDialog } from "./MergeDialog";
import { NewSessionForm } from "./NewSessionForm";
import { PreviewPane } from "./Preview";
import { SessionList } from "./SessionList";
import { TextEditor } from "./TextEditor";

export interface AppProps {
  services: BoardServices;
  color: boolean;
  /** Show archived sessions from the start (`--all`). */
  archived?: boolean;
  /** Run an attach that needs this terminal: the board steps aside and comes back. */
  suspend: (run: () => number) => number;
  /** Fixed size and clock, for tests. */
  size?: Size;
  now?: number;
}

type Mode =
  | { kind: "list" }
  | { kind: "filter" }
  | { kind: "help" }
  | { kind: "send"; row: ListRow }
  | { kind: "diff"; row: ListRow; diff: BoardDiff | null; error?: string }
  | { kind: "merge"; row: Extract<ListRow, { kind: "ok" }> }
  | { kind: "confirm"; question: string; lines: string[]; action: () => Promise<string>; busy: string }
  | { kind: "new"; launchers: string[]; defaultLauncher: string; groups: string[] }
  | { kind: "group"; groups: string[] };

/** A refusal as the footer shows it: what happened, then what to do (the SpexError's hint). */
function describe(e: unknown): string {
  const err = e as { message?: string; hint?: string; code?: string };
  const text = `${err.message ?? String(e)}${err.hint ? ` — ${err.hint}` : ""}`;
  return text.replace(/\s*\n\s*/g, "; ");
}

/** The layout: list above the panel on a normal terminal, side by side on a wide one. */
export function layout(size: Size): { list: { width: number; height: number }; panel: { width: number; height: number }; wide: boolean } {
  // One row is left free below the frame: a frame as tall as the terminal makes Ink clear and redraw the whole screen each time.
  const body = Math.max(2, size.rows - 3);
  if (size.columns >= 160) {
    const listWidth = Math.floor(size.columns * 0.55);
    return { list: { width: listWidth, height: body }, panel: { width: size.columns - listWidth - 1, height: body }, wide: true };
  }
  const listHeight = Math.max(3, Math.min(body - 3, Math.ceil(body * 0.45)));
  return { list: { width: size.columns, height: listHeight }, panel: { width: size.columns, height: body - listHeight }, wide: false };
}

export function App({ services, color, archived = false, suspend, size: fixedSize, now: fixedNow }: AppProps) {
  const { exit } = useApp();
  renderFault();
  const router = useKeyRouter(exit);
  const size = useTerminalSize(fixedSize);
  const now = useNow(10_000, fixedNow);
  const snapshot = useSnapshot(services);
  const view = useBoardView(snapshot?.rows ?? [], { archived });
  // Read by the key handler as the last key left it (a burst like `/docs` arrives before any frame).
  const modeNow = useCurrent<Mode>({ kind: "list" });
  const mode = modeNow.value;
  const setMode = modeNow.set;
  const [message, setMessage] = useState<FooterMessage | null>(null);
  const selected = view.selected;
  const preview = usePreview(services, selected?.id ?? null, color, mode.kind === "list" || mode.kind === "filter");
  const box = layout(size);

  useEffect(() => {
    if (snapshot?.error) setMessage({ text: `cannot list the sessions: ${snapshot.error}`, tone: "error" });
  }, [snapshot?.error]);

  const run = useCallback(
    (busy: string, action: () => Promise<string>) => {
      setMode({ kind: "list" });
      setMessage({ text: busy, tone: "busy" });
      action().then(
        (text) => setMessage({ text, tone: "info" }),
        (e) => setMessage({ text: describe(e), tone: "error" }),
      );
    },
    [services],
  );

  const attach = (plan: () => AttachPlan, label: string) => {
    try {
      const p = plan();
      const code = p.here ? suspend(() => p.run()) : p.run();
      setMessage(code === 0 ? { text: p.here ? `back from ${label}` : `${label}: opened (the board stays here)`, tone: "info" } : { text: `attaching ${label} failed (tmux exit ${code})`, tone: "error" });
    } catch (e) {
      setMessage({ text: describe(e), tone: "error" });
    }
  };

  const confirm = (question: string, lines: string[], busy: string, action: () => Promise<string>) => setMode({ kind: "confirm", question, lines, action, busy });

  const onListKey = (input: string, key: Key) => {
    if (message && message.tone !== "busy") setMessage(null);
    if (input === "q" || (key.ctrl && input === "c")) return exit();
    if (key.upArrow || input === "k") return view.move(-1);
    if (key.downArrow || input === "j") return view.move(1);
    if (key.pageUp) return view.move(-Math.max(1, box.list.height - 2));
    if (key.pageDown) return view.move(Math.max(1, box.list.height - 2));
    if (key.home) return view.moveTo("first");
    if (key.end) return view.moveTo("last");
    if (input === "/") return setMode({ kind: "filter" });
    if (key.escape) return view.filter || view.group !== null ? (view.setFilter(""), view.setGroup(null)) : undefined;
    if (input === "?") return setMode({ kind: "help" });
    if (input === "o") return view.setOrder(view.order === "triage" ? "plain" : "triage");
    if (input === "A") return view.setArchived(!view.archived);
    if (input === "g") return setMode({ kind: "group", groups: services.groups() });
    if (input === "n") {
      const l = services.launchers();
      return setMode({ kind: "new", launchers: l.names, defaultLauncher: l.default, groups: services.groups() });
    }
    if (input === "R") {
      // The same choice as `spex session resume --all`: an agent that died, not one a person stopped, not archived.
      const dead = view.all.filter((r) => r.kind === "ok" && !r.archived && (r.offlineReason === "machine_restarted" || r.offlineReason === "tmux_server_gone" || r.offlineReason === "agent_exited")).length;
      if (dead === 0) return setMessage({ text: "no session's agent died: nothing to resume (sessions you stopped stay stopped; r resumes one)", tone: "info" });
      const what = `${dead} session${dead === 1 ? "" : "s"}`;
      return confirm(`resume ${what} whose agent died?`, ["Each goes back into its own conversation, within sessions.maxActive; the rest wait in the launch queue."], `resuming ${what}…`, () => services.resumeAll());
    }
    const row = selected;
    if (!row) return;
    const id = row.id;
    const name = row.kind === "ok" ? `${row.shortId} ${row.label}` : row.shortId;
    if (key.return) return attach(() => services.attach(id), name);
    if (input === "s") return setMode({ kind: "send", row });
    if (input === "d") {
      setMode({ kind: "diff", row, diff: null });
      services.diff(id).then(
        (diff) => setMode((m) => (m.kind === "diff" && m.row.id === id ? { ...m, diff } : m)),
        (e) => setMode((m) => (m.kind === "diff" && m.row.id === id ? { ...m, error: describe(e) } : m)),
      );
      return;
    }
    if (input === "m" && row.kind === "ok") return setMode({ kind: "merge", row });
    if (input === "x") return confirm(`stop ${name}?`, ["The agent and its tmux session end; the worktree, branch and record stay (r resumes)."], `stopping ${row.shortId}…`, () => services.stop(id));
    if (input === "a" && row.kind === "ok") {
      if (row.archived) return run(`restoring ${row.shortId}…`, () => services.restore(id));
      return confirm(`archive ${name}?`, ["It leaves the list (A shows archived sessions; a restores it); its last screen is saved."], `archiving ${row.shortId}…`, () => services.archive(id));
    }
    if (input === "r") return run(`resuming ${row.shortId}…`, () => services.resume(id));
    if (input === "t") {
      setMessage({ text: `opening a terminal in ${row.shortId}'s worktree…`, tone: "busy" });
      services.terminal(id).then(
        (t) => attach(() => t.attach, t.message),
        (e) => setMessage({ text: describe(e), tone: "error" }),
      );
      return;
    }
    if (input === "c") {
      setMessage({ text: `looking at what closing ${row.shortId} would discard…`, tone: "busy" });
      services.closeDiscards(id).then(
        (d) => {
          setMessage(null);
          if (d.refusal) return setMessage({ text: d.refusal, tone: "error" });
          const lost = [
            ...d.files.map((f) => `file not committed: ${f}`),
            ...d.commits.map((c) => `commit not on the main branch: ${c}`),
            ...(d.moreCommits ? ["and more commits"] : []),
          ];
          const lines = lost.length > 0 ? ["Closing throws away:", ...lost] : ["Nothing would be lost: the work is merged or there is none."];
          confirm(`close ${name}? (worktree, branch and record go)`, lines, `closing ${row.shortId}…`, () => services.close(id, lost.length > 0));
        },
        (e) => setMessage({ text: describe(e), tone: "error" }),
      );
    }
  };

  const onFilterKey = (input: string, key: Key) => {
      if (key.escape) {
        view.setFilter("");
        return setMode({ kind: "list" });
      }
      if (key.return) return setMode({ kind: "list" });
      if (key.backspace || key.delete) return view.setFilter((f) => [...f].slice(0, -1).join(""));
      if (key.upArrow) return view.move(-1);
      if (key.downArrow) return view.move(1);
      if (!key.ctrl && !key.meta && input) view.setFilter((f) => f + input.replace(/[\r\n]/g, " "));
  };
  // The board's own keys, while no dialog is in front (a dialog drawn below takes the router over).
  // Keys typed faster than the board reads arrive as one string (`/docs`): the list takes them one by one.
  if (mode.kind === "list" || mode.kind === "filter") {
    router.current = (input, key) => {
      const burst = input.length > 1 && !key.ctrl && !key.meta && !key.return && !key.escape && !key.tab;
      const typed = burst ? [...input] : [input];
      // Words typed faster than the board reads, then Enter (`/auth⏎`, `jj⏎`): that one last Enter is the Enter key,
      // as in the editor. A paste of several lines stays text (a line break in the filter is a space).
      const enterLast = burst && /^[^\r\n]+\r$/.test(input);
      typed.forEach((ch, i) => {
        const isEnter = enterLast && i === typed.length - 1;
        const now = modeNow.get().kind;
        const [text, k] = isEnter ? ["", { ...key, return: true }] : [ch, key];
        if (now === "filter") onFilterKey(text, k);
        else if (now === "list") onListKey(text, k);
      });
    };
  }

  const back = () => setMode({ kind: "list" });
  const panel = (() => {
    const { width, height } = box.panel;
    switch (mode.kind) {
      case "send":
        return (
          <TextEditor
            title={`send to ${mode.row.shortId} ${mode.row.kind === "ok" ? mode.row.label : ""}`}
            width={width}
            height={height}
            onCancel={back}
            onSubmit={(text) => (text.trim() === "" ? back() : run(`sending to ${mode.row.shortId}…`, () => services.send(mode.row.id, text)))}
          />
        );
      case "merge":
        return (
          <MergeDialog
            label={mode.row.label}
            branch={mode.row.branch}
            width={width}
            height={height}
            onCancel={back}
            onMerge={(strategy: MergeChoice, uncommitted: boolean) => run(`merging ${mode.row.shortId} by ${strategy}…`, () => services.merge(mode.row.id, strategy, uncommitted))}
          />
        );
      case "confirm":
        return <ConfirmDialog question={mode.question} lines={mode.lines} width={width} height={height} onAnswer={(yes) => (yes ? run(mode.busy, mode.action) : (back(), setMessage({ text: "nothing changed", tone: "info" })))} />;
      case "new":
        return (
          <NewSessionForm
            launchers={mode.launchers}
            defaultLauncher={mode.defaultLauncher}
            groups={mode.groups}
            group={view.group ?? ""}
            width={width}
            height={height}
            onCancel={back}
            onSubmit={(form: Form) => run("creating a session…", () => services.create(form))}
          />
        );
      case "group":
        return (
          <GroupPicker
            groups={mode.groups}
            current={view.group}
            width={width}
            height={height}
            onCancel={back}
            onPick={(g) => {
              view.setGroup(g);
              back();
            }}
          />
        );
      default:
        return <PreviewPane row={selected} preview={preview} width={width} height={height} />;
    }
  })();

  const full = mode.kind === "diff" || mode.kind === "help";
  const bodyHeight = box.wide ? box.list.height : box.list.height + box.panel.height;
  // The same columns while the rows stay: the list's rows compare them by identity.
  const columns = useMemo(() => shownColumns(view.all), [view.all]);
  return (
    <KeyRouter.Provider value={router}>
    <ColorContext.Provider value={color}>
      <Box flexDirection="column" width={size.columns} height={size.rows - 1}>
        <Header
          project={services.project}
          counts={view.counts}
          total={view.all.length}
          shown={view.rows.length}
          filter={mode.kind === "filter" ? `${view.filter}█` : view.filter}
          group={view.group}
          order={view.order}
          archived={view.archived}
          width={size.columns}
        />
        {mode.kind === "diff" ? (
          <DiffView diff={mode.diff} error={mode.error} width={size.columns} height={bodyHeight} onClose={back} />
        ) : mode.kind === "help" ? (
          <HelpView width={size.columns} height={bodyHeight} onClose={back} />
        ) : null}
        {full ? null : (
          <Box flexDirection={box.wide ? "row" : "column"} height={bodyHeight}>
            <SessionList
              lines={view.lines}
              selectedId={selected?.id ?? null}
              columns={columns}
              width={box.list.width}
              height={box.list.height}
              now={now}
              empty={snapshot === null ? "reading the sessions…" : view.all.length === 0 ? "no sessions: press n to start one" : "nothing matches (Esc clears the filter)"}
            />
            {box.wide ? <Box width={1} /> : null}
            {panel}
          </Box>
        )}
        <Footer message={mode.kind === "filter" ? { text: "filter: type words · Enter keeps it · Esc clears", tone: "info" } : message} width={size.columns} />
      </Box>
    </ColorContext.Provider>
    </KeyRouter.Provider>
  );
}
