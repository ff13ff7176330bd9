// What the list shows, derived from the rows and the board's own choices
// (order, filter, group, archived), and the selection that moves over it.
// The selection is kept by session id, so a row that moves keeps it; when the
// selected row goes away (or a filter hides it), the row now at its place takes
// it, and from then on that session is the one kept, wherever its row moves.
// Before any key the first row is selected the same way: the session on it,
// not the place, so a row rising above it (a session starting to ask) does not
// take the selection, nor the next x, Enter or s, from under the person.
import { type Dispatch, type SetStateAction, useMemo, useRef, useState } from "react";
import { statusCounts } from "../../model/counts";
import { filterRows } from "../../model/filter";
import { type BoardLine, type Order, boardLines } from "../../model/order";
import type { ListRow } from "../../model/services";

export interface BoardView {
  lines: BoardLine[];
  /** Rows the list shows (filters applied), in line order. */
  rows: ListRow[];
  /** Every row (archived ones only when shown), for the header's counts. */
  all: ListRow[];
  counts: string;
  selected: ListRow | null;
  order: Order;
  filter: string;
  group: string | null;
  archived: boolean;
  setOrder(o: Order): void;
  setFilter: Dispatch<SetStateAction<string>>;
  setGroup(g: string | null): void;
  setArchived(a: boolean): void;
  select(id: string | null): void;
  move(by: number): void;
  moveTo(where: "first" | "last"): void;
}

/** ls hides archived rows unless asked (`--all`); a corrupt row is always shown. */
export function visibleRows(rows: ListRow[], archived: boolean): ListRow[] {
  return archived ? rows : rows.filter((r) => r.kind === "corrupt" || !r.archived);
}

export function useBoardView(rows: ListRow[], initial: { archived: boolean }): BoardView {
  const [order, setOrder] = useState<Order>("triage");
  const [filter, setFilter] = useState("");
  const [group, setGroup] = useState<string | null>(null);
  const [archived, setArchived] = useState(initial.archived);
  const [selectedId, select] = useState<string | null>(null);
  const lastIndex = useRef(0);
  /** The session the last frame showed selected: when the chosen one is not listed, this one is kept. */
  const shownId = useRef<string | null>(null);
  const forgotten = useRef<string | null>(null);

  const all = useMemo(() => visibleRows(rows, archived), [rows, archived]);
  const lines = useMemo(() => boardLines(filterRows(all, filter, group), order), [all, filter, group, order]);
  const listed = useMemo(() => lines.flatMap((l) => (l.kind === "row" ? [l.row] : [])), [lines]);
  const counts = useMemo(() => statusCounts(all), [all]);

  // A chosen session that left the board (closed, archived while archived rows are hidden) is forgotten: were it
  // to come back (restored from the CLI), it would take the selection back from the session the person has been on.
  // One a filter hides is kept, and comes back when the filter is cleared.
  if (selectedId !== null && selectedId !== forgotten.current && !all.some((r) => r.id === selectedId)) forgotten.current = selectedId;
  const chosen = selectedId === forgotten.current ? null : selectedId;
  let index = chosen === null ? -1 : listed.findIndex((r) => r.id === chosen);
  if (index < 0 && shownId.current !== null) index = listed.findIndex((r) => r.id === shownId.current);
  if (index < 0 && listed.length > 0) index = Math.min(lastIndex.current, listed.length - 1);
  if (index >= 0) lastIndex.current = index;
  const selected = index >= 0 ? listed[index]! : null;
  shownId.current = selected?.id ?? null;
  // Moves start from where the last move left the selection: keys can come faster than frames (a held j).
  const current = useRef({ listed, index });
  current.current = { listed, index };
  const moveTo = (to: number) => {
    const { listed: l } = current.current;
    if (l.length === 0) return;
    const at = Math.max(0, Math.min(l.length - 1, to));
    current.current = { listed: l, index: at };
    lastIndex.current = at;
    forgotten.current = null;
    select(l[at]!.id);
  };

  return {
    lines,
    rows: listed,
    all,
    counts,
    selected,
    order,
    filter,
    group,
    archived,
    setOrder,
    setFilter,
    setGroup,
    setArchived,
    select: (id) => {
      forgotten.current = null;
      select(id);
    },
    move: (by) => moveTo(Math.max(0, current.current.index) + by),
    moveTo: (where) => moveTo(where === "first" ? 0 : current.current.listed.length - 1),
  };
}
