// Small DOM helpers. Every value from the API goes in as text (textContent),
// never as markup: prompts, notes, screens and diffs are untrusted.

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** An element with a class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Characters that reorder the text around them without showing themselves (bidirectional controls). */
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * `text` with every bidirectional control written out as `⟨U+202E⟩`: a name,
 * note or branch holding a right-to-left override would otherwise read as
 * something else than what it holds ("gnp.exe" shown as "exe.png").
 */
export function showControls(text: string): string {
  return text.replace(DIRECTION_CONTROLS, (ch) => `⟨${codePoint(ch)}⟩`);
}

/**
 * `text` appended to `node` with every bidirectional control shown as a marked
 * `U+202E` instead of obeyed: in a patch, a right-to-left override makes a
 * line read as something else than what it holds ("Trojan Source").
 */
export function appendShowingControls(node: HTMLElement, text: string): void {
  let at = 0;
  for (const m of text.matchAll(DIRECTION_CONTROLS)) {
    if (m.index! > at) node.appendChild(document.createTextNode(text.slice(at, m.index)));
    const code = codePoint(m[0]);
    const mark = node.appendChild(el("span", "control", `⟨${code}⟩`));
    mark.title = `a hidden ${code} direction control is here: it would reorder the text around it`;
    at = m.index! + m[0].length;
  }
  if (at < text.length) node.appendChild(document.createTextNode(text.slice(at)));
}

export function age(iso: string | undefined): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (!t) return "";
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** A random key for a keyed create (one per draft, so a double click or a retry makes one session). */
export function freshKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
