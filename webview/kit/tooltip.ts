// Hover text. In the panel there is one tooltip element, #attention-tooltip (role=tooltip,
// aria-live=polite, so screen readers read what the focused cell says); on jsdom (`attn render`)
// the same text goes into each element's <title>. Views describe elements; wireTips does the rest.
import type { ViewOptions, RevealTarget } from './view.js';
import type { Box, TooltipApi } from './tooltip-api.js';

/** The panel's tooltip: lines of text (never markup) next to the pointer or the focused element. */
export class Tooltip implements TooltipApi {
  constructor(private readonly el: HTMLElement) {
    el.setAttribute('role', 'tooltip');
    el.setAttribute('aria-live', 'polite');
    el.hidden = true;
  }

  show(lines: readonly string[], at: { x: number; y: number } | Element | Box): void {
    const doc = this.el.ownerDocument;
    this.el.replaceChildren(...lines.map((line, i) => {
      const div = doc.createElement('div');
      if (i === 0) div.className = 'tip-head';
      div.textContent = line;
      return div;
    }));
    this.el.hidden = false;
    const win = doc.defaultView;
    const vw = win?.innerWidth ?? 800, vh = win?.innerHeight ?? 600;
    const w = this.el.offsetWidth || 200, h = this.el.offsetHeight || 40;
    let x: number, y: number;
    if ('getBoundingClientRect' in at) {
      // A legend stays readable: an element of one keeps the whole legend clear, any other element's
      // tooltip avoids the view's legends when it can (below a head toggle it hid the other toggles
      // and the key to the arcs).
      const own = at.closest('.legend');
      const legends = Array.from(at.closest('svg')?.querySelectorAll('.legend') ?? [], (l) => l.getBoundingClientRect());
      const keep = own ? union(at.getBoundingClientRect(), own.getBoundingClientRect()) : at.getBoundingClientRect();
      [x, y] = besideBox(keep, w, h, vw, vh, legends);
    } else if ('left' in at) {
      [x, y] = besideBox(at, w, h, vw, vh, []);
    } else {
      [x, y] = nearPointer(at, w, h, vw, vh);
    }
    this.el.style.left = `${Math.round(x)}px`;
    this.el.style.top = `${Math.round(y)}px`;
  }

  hide(): void {
    this.el.hidden = true;
  }
}


/** Below-right of the pointer, flipped to its other side at the window's edges (the pointer moves on). */
function nearPointer(p: { x: number; y: number }, w: number, h: number, vw: number, vh: number): [number, number] {
  let x = p.x + 14, y = p.y + 14;
  if (x + w > vw - 4) x = Math.max(4, x - w - 28);
  if (y + h > vh - 4) y = Math.max(4, y - h - 28);
  return [x, y];
}

/**
 * For a focused element: below it, else above it, never over it (a keyboard user must still see
 * where they are; beside a tall row or a legend line at the bottom right, the old flip covered it).
 * Its whole height band stays clear, so the focused row of a table or matrix stays readable; the
 * left edge follows the element's, kept inside the window. Of the two sides, one that covers none
 * of `avoid` (the view's legends) is taken first.
 */
function besideBox(r: Box, w: number, h: number, vw: number, vh: number, avoid: readonly Box[]): [number, number] {
  const x = Math.max(4, Math.min(r.left, vw - w - 4));
  const below = r.bottom + 6, above = r.top - h - 6;
  const fits = [below, above].filter((y) => y >= 4 && y + h <= vh - 4);
  const clear = fits.find((y) => !avoid.some((a) => x < a.right && a.left < x + w && y < a.bottom && a.top < y + h));
  if (clear !== undefined) return [x, clear];
  if (fits.length) return [x, fits[0]];
  // No room either side (an element nearly as tall as the window): the side with more room.
  return [x, vh - r.bottom >= r.top ? Math.min(below, vh - h - 4) : Math.max(4, above)];
}

function union(a: Box, b: Box): Box {
  return { left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) };
}

export interface Tip {
  lines: string[];
  /** Highlight (row and column, the token's arcs) while hovered or focused. */
  enter?: () => void;
  leave?: () => void;
  /** Clicking (or Enter on) the element shows this place in the spec. */
  reveal?: RevealTarget;
  /** Clicking also changes the selection (a token picked). */
  click?: () => void;
}

/**
 * Hover, focus and click for every element of `root` matching `selector`, through one set of
 * delegated listeners (a 128×128 matrix has 16,384 cells and no listener of its own).
 * Non-interactive: each element gets a <title> with the tip's lines instead.
 */
export function wireTips(root: SVGSVGElement, options: ViewOptions, selector: string, describe: (el: Element) => Tip | undefined): () => void {
  if (!options.interactive) {
    const doc = root.ownerDocument;
    root.querySelectorAll(selector).forEach((el) => {
      const tip = describe(el);
      if (!tip) return;
      const title = doc.createElementNS('http://www.w3.org/2000/svg', 'title');
      title.textContent = tip.lines.join('\n');
      el.insertBefore(title, el.firstChild);
    });
    return () => {};
  }
  let current: Element | undefined;
  let currentTip: Tip | undefined;
  const leave = () => {
    currentTip?.leave?.();
    current = undefined;
    currentTip = undefined;
    options.tooltip?.hide();
  };
  const enter = (el: Element, at: { x: number; y: number } | Element) => {
    if (el !== current) {
      leave();
      current = el;
      currentTip = describe(el);
      currentTip?.enter?.();
      if (currentTip && el.getAttribute('tabindex') !== null) el.setAttribute('aria-label', currentTip.lines.join('. '));
    }
    if (currentTip) options.tooltip?.show(currentTip.lines, at);
  };
  const over = (e: Event) => {
    const pe = e as PointerEvent;
    const el = (e.target as Element | null)?.closest?.(selector);
    if (el && root.contains(el)) enter(el, { x: pe.clientX, y: pe.clientY });
    else if (current) leave();
  };
  const out = (e: Event) => {
    const to = (e as PointerEvent).relatedTarget as Node | null;
    if (!to || !root.contains(to)) leave();
  };
  const focus = (e: Event) => {
    const el = (e.target as Element | null)?.closest?.(selector);
    if (el && root.contains(el)) enter(el, el);
  };
  const blur = (e: Event) => {
    const to = (e as FocusEvent).relatedTarget as Node | null;
    if (!to || !root.contains(to)) leave();
  };
  const click = (e: Event) => {
    const el = (e.target as Element | null)?.closest?.(selector);
    if (!el || !root.contains(el)) return;
    const tip = el === current && currentTip ? currentTip : describe(el);
    if (tip?.reveal) options.onReveal?.(tip.reveal);
    tip?.click?.();
  };
  const key = (e: Event) => {
    const ke = e as KeyboardEvent;
    if (ke.key === 'Escape') {
      // The tooltip goes; the focus stays where the user is (blurring it lost their place).
      leave();
    } else if (ke.key === 'Enter' || ke.key === ' ') {
      const el = (e.target as Element | null)?.closest?.(selector);
      if (el) {
        ke.preventDefault();
        click(e);
      }
    }
  };
  // One list for adding and removing, so the two can never disagree.
  const listeners: [string, EventListener][] = [
    ['pointerover', over as EventListener], ['pointermove', over as EventListener], ['pointerout', out as EventListener],
    ['focusin', focus as EventListener], ['focusout', blur as EventListener], ['click', click as EventListener], ['keydown', key as EventListener],
  ];
  for (const [type, listener] of listeners) root.addEventListener(type, listener);
  return () => {
    leave();
    for (const [type, listener] of listeners) root.removeEventListener(type, listener);
  };
}
