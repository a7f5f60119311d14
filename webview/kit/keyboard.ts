// Keyboard movement through a view's tokens or cells: one element in the tab order at a time
// (a "roving tabindex"), the arrow keys move between neighbours, Home/End jump to the row's ends.
// Tooltips follow focus (wireTips listens to focusin), Escape clears them.

export interface GridItem {
  el: Element;
  row: number;
  col: number;
}

/** Make `items` reachable by Tab (the first one) and by the arrow keys from there. */
export function rovingGrid(root: Element, items: readonly GridItem[], startIndex = 0): () => void {
  if (items.length === 0) return () => {};
  const at = new Map<string, Element>();
  const pos = new Map<Element, GridItem>();
  let maxRow = 0, maxCol = 0;
  for (const it of items) {
    at.set(`${it.row},${it.col}`, it.el);
    pos.set(it.el, it);
    // Only the current item carries a tabindex (16,384 cells need no attribute each).
    if (it.el.getAttribute('tabindex') === '0') it.el.removeAttribute('tabindex');
    maxRow = Math.max(maxRow, it.row);
    maxCol = Math.max(maxCol, it.col);
  }
  items[Math.min(startIndex, items.length - 1)].el.setAttribute('tabindex', '0');
  const move = (from: GridItem, dr: number, dc: number): Element | undefined => {
    let r = from.row + dr, c = from.col + dc;
    while (r >= 0 && r <= maxRow && c >= 0 && c <= maxCol) {
      const el = at.get(`${r},${c}`);
      if (el) return el;
      r += dr;
      c += dc;
    }
    return undefined;
  };
  const key = (e: Event) => {
    const ke = e as KeyboardEvent;
    const from = pos.get(ke.target as Element);
    if (!from) return;
    let to: Element | undefined;
    switch (ke.key) {
      case 'ArrowRight': to = move(from, 0, 1); break;
      case 'ArrowLeft': to = move(from, 0, -1); break;
      case 'ArrowDown': to = move(from, 1, 0); break;
      case 'ArrowUp': to = move(from, -1, 0); break;
      case 'Home': to = move({ ...from, col: -1 }, 0, 1); break;
      case 'End': to = move({ ...from, col: maxCol + 1 }, 0, -1); break;
      default: return;
    }
    ke.preventDefault();
    if (!to) return;
    from.el.removeAttribute('tabindex');
    to.setAttribute('tabindex', '0');
    (to as HTMLElement).focus?.();
  };
  root.addEventListener('keydown', key);
  return () => root.removeEventListener('keydown', key);
}

/**
 * Every hoverable element of a view in reach of the keyboard: one row per panel of the view (the
 * closest ancestor matching `panels`, in document order), its elements left to right on that row,
 * so arrows walk a panel and Up/Down move between panels. Tooltips follow the focus.
 */
export function hotGrid(root: Element, selector: string, panels: string): () => void {
  const rows = new Map<Element | null, number>();
  const cols = new Map<number, number>();
  const items: GridItem[] = [];
  root.querySelectorAll(selector).forEach((el) => {
    const panel = el.closest(panels);
    if (!rows.has(panel)) rows.set(panel, rows.size);
    const row = rows.get(panel)!;
    const col = cols.get(row) ?? 0;
    cols.set(row, col + 1);
    items.push({ el, row, col });
  });
  return rovingGrid(root, items);
}
