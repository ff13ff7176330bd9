// Keys, handled by the latest handler of whatever is in front. Ink subscribes
// a useInput handler in an effect, which can run after the next key arrives
// (a dialog's first key lost); and a burst of keys (a paste, Enter then y)
// arrives before any frame. So the board reads keys in one place (KeyRouter,
// set up by App) and sends each to the handler the front component registered
// while rendering; handlers step state kept in refs (useCurrent), so each key
// starts from what the last key left, not from the last frame.
import { type Key, useInput } from "ink";
import { createContext, useContext, useRef, useState } from "react";
import { keyFault } from "../faults";

export type { Key };
export type KeyHandler = (input: string, key: Key) => void;

/** Where keys go: the handler the frontmost active component set on its last render. */
export const KeyRouter = createContext<{ current: KeyHandler | null } | null>(null);

/** Several plain characters read at once (`jj`, typed faster than the board reads): a key each. */
export function oneByOne(handler: KeyHandler): KeyHandler {
  return (input, key) => {
    if (input.length > 1 && !key.ctrl && !key.meta && !key.escape) {
      for (const ch of input) handler(ch === "\r" || ch === "\t" ? "" : ch, { ...key, return: ch === "\r", tab: ch === "\t" });
    } else handler(input, key);
  };
}

/**
 * Backspace pressed faster than the board reads (held down, or typed right
 * after a few letters) comes in one read with them: `ab\x7f\x7f`. Ink names a
 * key only when it is alone in its read, so the whole run would be text, the
 * erase characters typed into a filter or a message. Each erase is cut out as
 * the key Ink names it when alone (DEL: delete, BS: backspace); the text
 * between stays one piece (a paste stays a paste).
 */
export function splitErases(input: string, key: Key): [string, Key][] {
  if (input.length < 2 || key.ctrl || key.meta || key.escape || !/[\x7f\b]/.test(input)) return [[input, key]];
  const keys: [string, Key][] = [];
  for (const piece of input.split(/([\x7f\b])/)) {
    if (piece === "\x7f") keys.push(["", { ...key, delete: true }]);
    else if (piece === "\b") keys.push(["", { ...key, backspace: true }]);
    else if (piece !== "") keys.push([piece, key]);
  }
  return keys;
}

/**
 * The router's owner (App): one subscription for the whole board, registered before any key can arrive.
 * Ctrl-C goes to `onCtrlC` whatever is in front (an editor, the filter, the diff): it quits the board from
 * anywhere, as it does a shell command, rather than being swallowed by the editor that has the keys.
 */
export function useKeyRouter(onCtrlC?: () => void): { current: KeyHandler | null } {
  const router = useRef<KeyHandler | null>(null);
  // Each render starts with nobody in front; the active component drawn last takes the keys.
  router.current = null;
  useInput((input, key) => {
    keyFault();
    if (onCtrlC && key.ctrl && input === "c") return onCtrlC();
    for (const [piece, k] of splitErases(input, key)) router.current?.(piece, k);
  });
  return router;
}

/** `text`: the handler takes a string whole (an editor: a paste stays one paste); otherwise a burst comes a key at a time. */
export function useKeys(handler: KeyHandler, active = true, text = false): void {
  const router = useContext(KeyRouter);
  if (router && active) router.current = text ? handler : oneByOne(handler);
  // Outside a router (a component drawn alone, in its own test) it reads keys itself.
  const latest = useRef(handler);
  latest.current = handler;
  useInput(
    (input, key) => {
      for (const [piece, k] of splitErases(input, key)) latest.current(piece, k);
    },
    { isActive: !router && active },
  );
}

/** A value that keys step: read now with get(), drawn on the next frame. */
export function useCurrent<T>(initial: T | (() => T)): { value: T; get(): T; set(next: T | ((old: T) => T)): void } {
  const [value, setValue] = useState(initial);
  const ref = useRef(value);
  return {
    value,
    get: () => ref.current,
    set(next) {
      ref.current = typeof next === "function" ? (next as (old: T) => T)(ref.current) : next;
      setValue(ref.current);
    },
  };
}
