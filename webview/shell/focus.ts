// Where the keyboard is. VS Code's Ctrl+2 ("focus the second editor group") focuses a webview's
// window and nothing in it, so the keyboard landed on the page and Tab walked the whole toolbar
// first: with nothing focused, the view's first control takes the focus. A click chooses its own
// place (pointerdown comes just before the window's focus), and a place already focused is kept.
// A redraw replaces the view's elements: the element focused before it is focused again after it.

import { CUT_CLASS } from './cuts.js';

/** A click this recent (ms) explains the window's focus: it is left alone. */
const POINTER_MS = 500;

/**
 * Focus the first tab stop inside `view` (a control, a token, a painted matrix); false when it has
 * none. A text cut with "…" (a control that shows its whole text) comes last: arriving, the keyboard
 * lands on the picture, and the cut note above it is one Shift+Tab away.
 */
export function focusFirstStop(view: HTMLElement): boolean {
  const stop = view.querySelector<HTMLElement>(`[tabindex="0"]:not(.${CUT_CLASS})`) ?? view.querySelector<HTMLElement>('[tabindex="0"]');
  if (!stop) return false;
  stop.focus();
  return true;
}

/**
 * Focus the first control of `root` (a tab, a button, a menu): where Ctrl+2 lands when the view has
 * no tab stop of its own (Spectrum, Covariance), so the keyboard is never left on the page's body,
 * from which Tab and Shift+Tab leave the panel. False when `root` has none.
 */
export function focusFirstControl(root: HTMLElement): boolean {
  const stop = root.querySelector<HTMLElement>('[tabindex="0"], button:not([disabled]), select:not([disabled]), input:not([disabled]), a[href]');
  if (!stop) return false;
  stop.focus();
  return true;
}

/** When the window gets the focus with nothing inside `root` focused, `focusView()` places it; returns how to stop. */
export function focusOnArrival(root: HTMLElement, focusView: () => void): () => void {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  if (!win) return () => {};
  let pointerAt = -Infinity;
  const onPointer = () => { pointerAt = performance.now(); };
  const onFocus = () => {
    if (performance.now() - pointerAt < POINTER_MS) return;
    const a = doc.activeElement;
    if (a && a !== doc.body && a !== root && root.contains(a)) return;
    focusView();
  };
  doc.addEventListener('pointerdown', onPointer, true);
  win.addEventListener('focus', onFocus);
  return () => {
    doc.removeEventListener('pointerdown', onPointer, true);
    win.removeEventListener('focus', onFocus);
  };
}

/** The attributes that say which token, cell, head (of which layer) or statistic an element of a view stands for. */
const PLACE_ATTRIBUTES = ['data-layer', 'data-head', 'data-query', 'data-key', 'data-token', 'data-input', 'data-tip', 'data-stat', 'data-cut'];

const quoted = (v: string) => v.replace(/["\\]/g, '');

/**
 * The focused element inside `root`, remembered before a redraw: a toolbar control by its
 * data-control, or an element of `view` by its class and the place attributes it carries. Returns
 * what focuses its counterpart again after the redraw, or undefined when there is nothing to keep
 * (nothing focused there, or inside `skip`, whose own code keeps its focus).
 */
export function rememberFocus(root: HTMLElement, view: HTMLElement, skip?: string): (() => void) | undefined {
  const a = root.ownerDocument.activeElement;
  if (!a || !root.contains(a) || a === root) return undefined;
  if (skip && a.closest(skip)) return undefined;
  const control = a.getAttribute('data-control');
  if (control) {
    const selector = `${a.localName}[data-control="${quoted(control)}"]`;
    return () => refocus(root, selector);
  }
  if (!view.contains(a)) return undefined;
  const attrs = PLACE_ATTRIBUTES.filter((n) => a.hasAttribute(n)).map((n) => `[${n}="${quoted(a.getAttribute(n) ?? '')}"]`).join('');
  const cls = a.classList[0];
  if (!cls || !attrs) return undefined;
  const selector = `.${cls}${attrs}`;
  return () => refocus(view, selector);
}

/**
 * Focus the element `selector` finds inside `within`. In a roving grid only the first item has a
 * tabindex, and an SVG element without one cannot take focus (Enter on the second head toggle
 * dropped focus to the page): it becomes its grid's tab stop instead.
 */
function refocus(within: HTMLElement, selector: string): void {
  const el = within.querySelector<HTMLElement>(selector);
  if (!el) return;
  if (!el.hasAttribute('tabindex') && el.parentElement) {
    for (const other of Array.from(el.parentElement.children)) if (other.getAttribute('tabindex') === '0') other.removeAttribute('tabindex');
    el.setAttribute('tabindex', '0');
  }
  el.focus();
}
