// The page's Content-Security-Policy allows inline <style> elements only with
// the nonce the server put in this page (a fresh one per page load). xterm.js
// makes <style> elements for its colours and sizes: they get the nonce as they
// are made; nothing else on the page makes one.
export function allowStyleElements(): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="style-nonce"]')?.content ?? "";
  if (!nonce) return;
  const make = document.createElement.bind(document) as (tag: string, options?: ElementCreationOptions) => HTMLElement;
  document.createElement = ((tag: string, options?: ElementCreationOptions) => {
    const node = make(tag, options);
    if (tag.toLowerCase() === "style") node.nonce = nonce;
    return node;
  }) as typeof document.createElement;
}
