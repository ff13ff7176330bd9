// The page's Content-Security-Policy allows inline <style> elements only with
// the nonce the server put in this page (a fresh one per page load), and no
// inline style attributes at all. xterm.js makes <style> elements for its
// theme and sizes: they get the nonce as they are made. Its DOM renderer
// writes a 24-bit colour as a `style` attribute (setAttribute), which the
// policy blocks (the colour came out white); the same declarations set
// through the CSSOM (`element.style`), which the policy does not govern,
// render it. Markup can still carry no inline style: only the page's own
// script reaches the CSSOM, and it puts only colours there.
export function allowStyleElements(): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="style-nonce"]')?.content ?? "";
  if (!nonce) return;
  const make = document.createElement.bind(document) as (tag: string, options?: ElementCreationOptions) => HTMLElement;
  document.createElement = ((tag: string, options?: ElementCreationOptions) => {
    const node = make(tag, options);
    if (tag.toLowerCase() === "style") node.nonce = nonce;
    return node;
  }) as typeof document.createElement;
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string): void {
    if (name.toLowerCase() === "style" && this instanceof HTMLElement) this.style.cssText = value;
    else setAttribute.call(this, name, value);
  };
}
