/** A small element builder: text children are escaped by the DOM, never parsed as HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Readonly<Record<string, string>> = {}, ...children: ReadonlyArray<Node | string>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

/** The element with `id`; the page's HTML has every one this script asks for. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}
