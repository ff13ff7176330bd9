// The selected session's screen: read when the selection settles, then once a
// second while it stays selected (every two once it has stood still for three
// reads: an idle board's main cost is this read), one tmux process a read and
// never two reads at once (DESIGN.md §14: only what is on screen, never a call
// per session).
import { useEffect, useRef, useState } from "react";
import type { BoardPreview, BoardServices } from "../../model/services";

/** Between two reads of the same pane. */
export const PREVIEW_EVERY_MS = 1000;
/** Between two reads of a pane whose screen has not changed for QUIET_AFTER reads. */
export const PREVIEW_QUIET_MS = 2000;
const QUIET_AFTER = 3;
/** A selection moving through the list (a held key) reads nothing until it rests this long. */
export const PREVIEW_SETTLE_MS = 120;

export function usePreview(services: BoardServices, id: string | null, styled: boolean, enabled = true): BoardPreview | null {
  const [preview, setPreview] = useState<BoardPreview | null>(null);
  const busy = useRef(false);
  useEffect(() => {
    if (!id || !enabled) return;
    let live = true;
    let timer: NodeJS.Timeout | undefined;
    let unchanged = 0;
    let last: string | undefined;
    const read = async () => {
      timer = undefined;
      if (!live) return;
      if (busy.current) {
        timer = setTimeout(read, PREVIEW_SETTLE_MS);
        return;
      }
      busy.current = true;
      try {
        const p = await services.preview(id, styled);
        unchanged = p.text === last ? unchanged + 1 : 0;
        last = p.text;
        if (live) setPreview((old) => (old && old.id === p.id && old.text === p.text && old.source === p.source && old.live === p.live ? old : p));
      } catch (e) {
        if (live) setPreview({ id, source: "none", live: false, text: `(cannot read the screen: ${(e as Error).message})` });
      } finally {
        busy.current = false;
      }
      if (live) timer = setTimeout(read, unchanged >= QUIET_AFTER ? PREVIEW_QUIET_MS : PREVIEW_EVERY_MS);
    };
    timer = setTimeout(read, PREVIEW_SETTLE_MS);
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [services, id, styled, enabled]);
  return preview && preview.id === id ? preview : null;
}
