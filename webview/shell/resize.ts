// A shell redraws when the room its views take changes width: a ResizeObserver on that element, or,
// where there is none (jsdom, old engines), the window's 'resize' event. Changes of a few pixels
// (a scroll bar coming and going) are not worth a new picture.

/** Widths closer than this to the width drawn at are not redrawn. */
export const RESIZE_SLACK = 4;

/**
 * Calls `resized` when `el`'s width moves more than RESIZE_SLACK pixels away from `drawnAt()`, the
 * width the views were last drawn at; returns how to stop.
 */
export function watchWidth(el: HTMLElement, drawnAt: () => number, resized: () => void): () => void {
  const win = el.ownerDocument.defaultView;
  if (!win) return () => {};
  const check = () => { if (Math.abs(el.clientWidth - drawnAt()) > RESIZE_SLACK) resized(); };
  if ('ResizeObserver' in win && typeof win.ResizeObserver === 'function') {
    const ro = new win.ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }
  win.addEventListener('resize', check);
  return () => win.removeEventListener('resize', check);
}
