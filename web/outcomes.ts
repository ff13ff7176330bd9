// What an action did, kept on screen under the header until dismissed: a
// merge that closed its session, a close, a quarantine (with its restore),
// a bulk action. The panel an action started in may be gone by the time it
// answers (the session closed): its outcome is not.
import { byId, el } from "./dom";

const KEEP = 6;

export interface OutcomeAction {
  label: string;
  /** Runs the action; its answer (or error) replaces the outcome's text. */
  run(): Promise<string>;
}

/**
 * Sessions this page asked to remove (close, merge and close, quarantine): the
 * action's own outcome says so. Kept until the removal's event comes (it may
 * come after the answer) or the action fails.
 */
const removingHere = new Set<string>();

export function removing(id: string): void {
  removingHere.add(id);
}

export function notRemoving(id: string): void {
  removingHere.delete(id);
}

/** Whether this page removed `id` (asked once, by the removal's event). */
export function removedHere(id: string): boolean {
  return removingHere.delete(id);
}

export function outcome(text: string, opts: { error?: boolean; actions?: OutcomeAction[] } = {}): void {
  const list = byId("outcomes");
  const li = el("li", opts.error ? "error" : "");
  const words = li.appendChild(el("span", "what", text));
  for (const a of opts.actions ?? []) {
    const b = li.appendChild(el("button", "", a.label));
    b.type = "button";
    b.addEventListener("click", () => {
      b.disabled = true;
      a.run().then(
        (said) => {
          words.textContent = said;
          li.className = "";
          b.remove();
        },
        (e: Error) => {
          words.textContent = `${text} — ${a.label} refused: ${e.message}`;
          li.className = "error";
          b.disabled = false;
        },
      );
    });
  }
  const close = li.appendChild(el("button", "dismiss", "×"));
  close.type = "button";
  close.title = "dismiss";
  close.addEventListener("click", () => {
    li.remove();
    list.hidden = list.childElementCount === 0;
  });
  list.insertBefore(li, list.firstChild);
  while (list.childElementCount > KEEP) list.lastChild!.remove();
  list.hidden = false;
}
