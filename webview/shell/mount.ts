// Where a shell is put: the entry points find their root and tooltip elements in the page the host
// (or the CLI) wrote, or make them when a page lacks one.

/** The element with `id`, or a new `tag` with that id put first or last in the body. */
export function mountPoint(doc: Document, id: string, tag: string, where: 'first' | 'last'): HTMLElement {
  const found = doc.getElementById(id);
  if (found) return found;
  const el = doc.createElement(tag);
  el.id = id;
  if (where === 'first') doc.body.prepend(el);
  else doc.body.append(el);
  return el;
}
