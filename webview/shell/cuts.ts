// Texts a view had to cut with "…" (a note, a heading's last line, a caption, a long name) keep
// their whole text in a <title>, which only a mouse can hover. In the panel and the model page each
// one becomes a small control: Tab reaches it, Enter or Space shows the whole text beside it (in
// the surface's tooltip, which never covers the element it is beside) and says so (aria-expanded);
// Enter, Space or Escape again, or leaving it, hides the text. Screen readers hear the whole text
// at once, as its name. `attn render` and the exports keep the plain <title>: nothing here runs there.
import type { TooltipApi } from '../kit/tooltip-api.js';

/** The class a cut text gets, first of its classes (the focus kept across a redraw is found by it). */
export const CUT_CLASS = 'al-cut';

/** A text inside one of these is part of a control of its view, which has its own keys and hover. */
const CONTROL = '.hot, [data-tip], [tabindex], [role="button"], [role="application"]';

/** The text an element shows, its <title> (its hover) left out. */
export function shownText(el: Element): string {
  let out = '';
  for (const c of Array.from(el.childNodes)) {
    if (c.nodeType === 1 && (c as Element).localName === 'title') continue;
    out += c.nodeType === 1 ? shownText(c as Element) : c.textContent ?? '';
  }
  return out;
}

/**
 * The whole text of a text cut with "…", read from its own <title>; undefined for a text shown
 * whole, or one whose <title> is a hover of another kind (a number's explanation, not its rest).
 */
export function wholeOfCut(el: Element): string | undefined {
  const title = Array.from(el.children).find((c) => c.localName === 'title');
  const whole = title?.textContent?.trim();
  if (!whole) return undefined;
  const shown = shownText(el).replace(/\s+/g, ' ').trim();
  if (!shown.includes('…') || shown === whole) return undefined;
  return whole;
}

/**
 * Makes every cut text of `view` a control in the tab order (the texts already marked are left as
 * they are); returns them, in document order. A text that is already a control of its view (a
 * hoverable number, in its own roving grid) keeps its own keys.
 */
export function markCuts(view: Element, tooltipId?: string): Element[] {
  const marked: Element[] = [];
  // From the <title>s: a view of thousands of texts has a handful of them.
  view.querySelectorAll('svg text > title').forEach((title) => {
    const el = title.parentElement!;
    if (el.classList.contains(CUT_CLASS)) { marked.push(el); return; }
    // Only inside its picture: the page around it (a notebook's output) may hold a tabindex of its own.
    const control = el.closest(CONTROL);
    if (control && el.closest('svg')?.contains(control)) return;
    const whole = wholeOfCut(el);
    if (whole === undefined) return;
    el.setAttribute('class', `${CUT_CLASS} ${el.getAttribute('class') ?? ''}`.trim());
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-expanded', 'false');
    el.setAttribute('aria-label', whole);
    if (tooltipId) el.setAttribute('aria-controls', tooltipId);
    el.setAttribute('cursor', 'pointer');
    marked.push(el);
  });
  // A place that lasts across a redraw of the same picture: the n-th cut text.
  marked.forEach((el, i) => el.setAttribute('data-cut', String(i)));
  return marked;
}

/**
 * Enter, Space and a click on a cut text of `view` show its whole text in `tooltip` (or hide it
 * again); Escape or the focus leaving hides it. Listens on `view` itself, which outlives every
 * drawing, and in the capture phase: the keys a cut text takes are not also a view's (Escape went
 * back to the grid in the model page). New drawings inside the view are marked as they come.
 * Returns how to stop.
 */
export function wireCuts(view: HTMLElement, tooltip: TooltipApi, tooltipId?: string): () => void {
  let open: Element | undefined;
  const cutOf = (t: EventTarget | null): Element | undefined => {
    const el = (t as Element | null)?.closest?.(`.${CUT_CLASS}`);
    return el && view.contains(el) ? el : undefined;
  };
  const collapse = () => {
    if (!open) return;
    open.setAttribute('aria-expanded', 'false');
    open = undefined;
    tooltip.hide();
  };
  const toggle = (el: Element) => {
    if (open === el) { collapse(); return; }
    collapse();
    const whole = el.getAttribute('aria-label') ?? wholeOfCut(el);
    if (!whole) return;
    open = el;
    el.setAttribute('aria-expanded', 'true');
    tooltip.show([whole], el);
  };
  const onKey = (e: Event) => {
    const ke = e as KeyboardEvent;
    const el = cutOf(ke.target);
    if (!el) return;
    if (ke.key === 'Enter' || ke.key === ' ') toggle(el);
    else if (ke.key === 'Escape' && open === el) collapse();
    else return;
    ke.preventDefault();
    ke.stopPropagation();
  };
  const onClick = (e: Event) => {
    const el = cutOf(e.target);
    if (el) toggle(el);
  };
  const onFocusOut = (e: Event) => {
    if (open && (e as FocusEvent).target === open) collapse();
  };
  view.addEventListener('keydown', onKey, true);
  view.addEventListener('click', onClick);
  view.addEventListener('focusout', onFocusOut);
  // A view that draws again by itself (a page of tokens, a step of training) brings new texts.
  const Observer = view.ownerDocument.defaultView?.MutationObserver;
  // (Only for new texts: a hover's highlight adds lines and paths at every move.)
  const observer = Observer ? new Observer((records) => {
    if (open && !view.contains(open)) open = undefined;
    if (records.some((r) => Array.from(r.addedNodes).some(bringsText))) markCuts(view, tooltipId);
  }) : undefined;
  observer?.observe(view, { childList: true, subtree: true });
  return () => {
    observer?.disconnect();
    collapse();
    view.removeEventListener('keydown', onKey, true);
    view.removeEventListener('click', onClick);
    view.removeEventListener('focusout', onFocusOut);
  };
}

/** Whether an added node is, or holds, a text. */
function bringsText(n: Node): boolean {
  if (n.nodeType !== 1) return false;
  const el = n as Element;
  return el.localName === 'text' || el.localName === 'title' || el.querySelector('text') !== null;
}
