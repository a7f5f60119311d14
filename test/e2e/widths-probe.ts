// What the widths test (widths.e2e.test.ts) runs inside Chromium, bundled by esbuild into the test
// page: it measures every piece of text the panel shows, with the browser's own layout, and says
// which two texts overlap, which text leaves its picture (its <svg>, or the panel's visible width),
// and which text cut with "…" has no hover that reads the rest. It also drives the panels: one
// render message per example to every frame, a click on each tab, the host's answer to a 'need'.
// It imports nothing: it runs in the page, not in node.

export interface Finding {
  kind: 'overlap' | 'outside' | 'ellipsis' | 'error';
  /** Where the (first) text is: the view, the summary strip above it, or the panel's own chrome (header, tabs, menus). */
  where: 'view' | 'summary' | 'chrome';
  /** The text at fault (and, for an overlap, the other one). */
  a: string;
  b?: string;
  detail: string;
}

type Point = [number, number];

interface Piece {
  text: string;
  /** Its corners in the frame's window (a rotated label is a rotated rectangle). */
  quad: Point[];
  left: number; right: number; top: number; bottom: number;
  el: Element;
  svg?: SVGSVGElement;
}

const TOLERANCE = 1;

const shortText = (s: string) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 70 ? `${t.slice(0, 67)}...` : t;
};

function box(quad: Point[]): Pick<Piece, 'left' | 'right' | 'top' | 'bottom'> {
  let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
  for (const [x, y] of quad) { left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y); }
  return { left, right, top, bottom };
}

const RANK = { view: 0, summary: 1, chrome: 2 } as const;
function whereIs(el: Element): Finding['where'] {
  return el.closest('#attention-view, .model-stage') ? 'view' : el.closest('#attention-summary') ? 'summary' : 'chrome';
}

function visible(el: Element): boolean {
  const win = el.ownerDocument.defaultView!;
  for (let e: Element | null = el; e; e = e.parentElement) {
    if (e instanceof win.HTMLElement && e.hidden) return false;
    const cs = win.getComputedStyle(e);
    if (cs.display === 'none' || cs.visibility === 'hidden' || Number(cs.opacity) === 0) return false;
  }
  return true;
}

/** Every SVG text leaf: a <tspan> with text of its own, or a <text> without tspans. */
function svgPieces(root: Element): Piece[] {
  const out: Piece[] = [];
  for (const t of Array.from(root.querySelectorAll('svg text'))) {
    if (t.closest('defs, title')) continue;
    const spans = Array.from(t.querySelectorAll('tspan')).filter((s) => (s.textContent ?? '').trim() !== '');
    const leaves: SVGGraphicsElement[] = spans.length ? spans as SVGGraphicsElement[] : [t as SVGGraphicsElement];
    for (const leaf of leaves) {
      const text = Array.from(leaf.childNodes).filter((n) => n.nodeType === 3 || n.nodeName === 'tspan').map((n) => n.textContent).join('');
      if (text.trim() === '' || !visible(leaf)) continue;
      const b = leaf.getBBox();
      if (b.width === 0 && b.height === 0) continue;
      const m = leaf.getScreenCTM();
      if (!m) continue;
      const at = (x: number, y: number): Point => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
      const quad = [at(b.x, b.y), at(b.x + b.width, b.y), at(b.x + b.width, b.y + b.height), at(b.x, b.y + b.height)];
      let svg = leaf.ownerSVGElement!;
      while (svg.ownerSVGElement) svg = svg.ownerSVGElement;
      out.push({ text, quad, ...box(quad), el: leaf, svg });
    }
  }
  return out;
}

/** Every line of HTML text (a text node's client rects), outside the SVGs and the closed menus. */
function htmlPieces(root: Element): Piece[] {
  const doc = root.ownerDocument;
  const out: Piece[] = [];
  const walker = doc.createTreeWalker(root, 4 /* SHOW_TEXT */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest('svg, select, option, script, style, title') || (n.textContent ?? '').trim() === '') continue;
    if (!visible(parent)) continue;
    const range = doc.createRange();
    range.selectNodeContents(n);
    for (const r of Array.from(range.getClientRects())) {
      if (r.width === 0 || r.height === 0) continue;
      const quad: Point[] = [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
      out.push({ text: n.textContent ?? '', quad, left: r.left, right: r.right, top: r.top, bottom: r.bottom, el: parent });
    }
  }
  return out;
}

/** How deep two convex quads overlap along the axis that separates them best (≤ 0: apart). */
function penetration(a: Point[], b: Point[]): number {
  let least = Infinity;
  for (const quad of [a, b]) {
    for (let i = 0; i < quad.length; i++) {
      const p = quad[i], q = quad[(i + 1) % quad.length];
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len === 0) continue;
      const nx = -(q[1] - p[1]) / len, ny = (q[0] - p[0]) / len;
      const project = (s: Point[]) => {
        let lo = Infinity, hi = -Infinity;
        for (const v of s) { const d = v[0] * nx + v[1] * ny; lo = Math.min(lo, d); hi = Math.max(hi, d); }
        return [lo, hi];
      };
      const [a0, a1] = project(a), [b0, b1] = project(b);
      least = Math.min(least, Math.min(a1, b1) - Math.max(a0, b0));
      if (least <= 0) return least;
    }
  }
  return least;
}

/** Pairs of pieces overlapping by more than the tolerance: a sweep over x, then the exact test. */
export function overlaps(pieces: readonly Piece[]): [Piece, Piece, number][] {
  const sorted = [...pieces].sort((p, q) => p.left - q.left);
  const active: Piece[] = [];
  const found: [Piece, Piece, number][] = [];
  for (const p of sorted) {
    for (let i = active.length - 1; i >= 0; i--) if (active[i].right <= p.left + TOLERANCE) active.splice(i, 1);
    for (const q of active) {
      if (q.bottom <= p.top + TOLERANCE || p.bottom <= q.top + TOLERANCE) continue;
      const depth = penetration(p.quad, q.quad);
      if (depth > TOLERANCE) found.push([q, p, depth]);
    }
    active.push(p);
  }
  return found;
}

/** The horizontal band of the window in which `el` can be seen: clipped by every scrolling or clipping ancestor. */
function seenBand(el: Element): { left: number; right: number; top: number; bottom: number } {
  const win = el.ownerDocument.defaultView!;
  const band = { left: 0, right: el.ownerDocument.documentElement.clientWidth, top: -Infinity, bottom: Infinity };
  for (let e: Element | null = el.parentElement; e; e = e.parentElement) {
    if (e instanceof win.SVGElement) continue;
    const cs = win.getComputedStyle(e);
    const r = e.getBoundingClientRect();
    if (cs.overflowX !== 'visible') {
      band.left = Math.max(band.left, r.left + e.clientLeft);
      band.right = Math.min(band.right, r.left + e.clientLeft + e.clientWidth);
    }
    if (cs.overflowY === 'hidden' || cs.overflowY === 'clip') {
      band.top = Math.max(band.top, r.top + e.clientTop);
      band.bottom = Math.min(band.bottom, r.top + e.clientTop + e.clientHeight);
    }
  }
  return band;
}

function outside(p: Piece): string | undefined {
  const band = seenBand(p.el);
  if (p.svg) {
    const r = p.svg.getBoundingClientRect();
    band.left = Math.max(band.left, r.left); band.right = Math.min(band.right, r.right);
    band.top = Math.max(band.top, r.top); band.bottom = Math.min(band.bottom, r.bottom);
  } else {
    // An HTML element that clips its own text (overflow hidden, a button narrower than its label).
    const win = p.el.ownerDocument.defaultView!;
    const cs = win.getComputedStyle(p.el);
    if (cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis') {
      const r = p.el.getBoundingClientRect();
      if (p.el.scrollWidth > p.el.clientWidth + TOLERANCE) return `cut by its own box (${p.el.clientWidth} px wide, text ${p.el.scrollWidth} px)`;
      band.left = Math.max(band.left, r.left); band.right = Math.min(band.right, r.right);
    }
  }
  const f = (x: number) => x.toFixed(1);
  if (p.left < band.left - TOLERANCE || p.right > band.right + TOLERANCE) {
    return `x ${f(p.left)}..${f(p.right)} outside the visible ${f(band.left)}..${f(band.right)}`;
  }
  if (p.top < band.top - TOLERANCE || p.bottom > band.bottom + TOLERANCE) {
    return `y ${f(p.top)}..${f(p.bottom)} outside ${f(band.top)}..${f(band.bottom)}`;
  }
  return undefined;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The text one hover away from `p`: a <title> on it or up to its view's group, a title attribute, or the panel's tooltip. */
function hoverText(p: Piece): string {
  const texts: string[] = [];
  for (let e: Element | null = p.el; e && e.localName !== 'svg'; e = e.parentElement) {
    for (const c of Array.from(e.children)) if (c.localName === 'title') texts.push(c.textContent ?? '');
    const t = e.getAttribute('title');
    if (t) texts.push(t);
    if (e.id === rootId) break;
  }
  const doc = p.el.ownerDocument;
  const win = doc.defaultView!;
  const tip = doc.getElementById('attention-tooltip');
  if (tip) {
    const x = (p.left + p.right) / 2, y = (p.top + p.bottom) / 2;
    p.el.dispatchEvent(new win.PointerEvent('pointerover', { bubbles: true, clientX: x, clientY: y }));
    if (!tip.hidden) texts.push(Array.from(tip.children, (c) => c.textContent).join('\n'));
    p.el.dispatchEvent(new win.PointerEvent('pointerout', { bubbles: true, clientX: x, clientY: y }));
    tip.hidden = true;
  }
  return texts.join('\n');
}

/** The root measured now: the panel's, or the model page's (model-root). */
let rootId = 'attention-root';

/** Everything wrong with the text shown in `doc`'s panel (or the page whose root is `id`) now. */
export function measure(doc: Document, id = 'attention-root'): Finding[] {
  rootId = id;
  const root = doc.getElementById(id);
  if (!root) return [{ kind: 'error', where: 'chrome', a: '', detail: `no #${id}` }];
  const pieces = [...svgPieces(root), ...htmlPieces(root)];
  const found: Finding[] = [];
  for (const [p0, q0, depth] of overlaps(pieces)) {
    const [p, q] = RANK[whereIs(p0.el)] <= RANK[whereIs(q0.el)] ? [p0, q0] : [q0, p0];
    found.push({ kind: 'overlap', where: whereIs(p.el), a: shortText(p.text), b: shortText(q.text), detail: `overlap ${depth.toFixed(1)} px` });
  }
  for (const p of pieces) {
    const why = outside(p);
    if (why) found.push({ kind: 'outside', where: whereIs(p.el), a: shortText(p.text), detail: why });
    const shown = norm(p.text);
    if (/(…|\.\.\.)$/.test(shown)) {
      const prefix = shown.replace(/(…|\.\.\.)$/, '').trim();
      const hover = norm(hoverText(p));
      if (!hover.includes(prefix) || hover.length <= prefix.length + 1) {
        found.push({ kind: 'ellipsis', where: whereIs(p.el), a: shortText(p.text), detail: hover ? `its hover reads "${shortText(hover)}"` : 'no hover text' });
      }
    }
  }
  return found;
}

/**
 * Texts that must be read whole, never cut to a hover: the projection's full-size line (its seed
 * figure, 3,145,728, was cut at 430 and 626 px) and each head's name over its matrix (six of eight
 * small multiples read 'head "he…').
 */
export const WHOLE_SELECTORS = ['text.full-size', 'text.head-name'] as const;

export interface Whole {
  selector: (typeof WHOLE_SELECTORS)[number];
  /** The text as drawn, its lines (tspans) joined by spaces, without its hover. */
  text: string;
  cut: boolean;
  /** Why a part of it is not on screen, if one is not. */
  outside?: string;
}

/** Every text of WHOLE_SELECTORS in the panel now: what it reads, and whether all of it is seen. */
export function wholes(doc: Document, id = 'attention-root'): Whole[] {
  const root = doc.getElementById(id);
  if (!root) return [];
  const pieces = svgPieces(root);
  return WHOLE_SELECTORS.flatMap((selector) => Array.from(root.querySelectorAll(selector), (el) => {
    const text = Array.from(el.childNodes).filter((n) => n.nodeName !== 'title').map((n) => n.textContent ?? '').join(' ');
    const mine = pieces.filter((p) => el === p.el || el.contains(p.el));
    const why = mine.length === 0 ? 'not drawn' : mine.map(outside).find((w) => w !== undefined);
    return { selector, text, cut: /…|\.\.\.$/.test(text), ...(why ? { outside: why } : {}) };
  }));
}

// ---- driving the panels (the test page's top window) ----

export interface Frame { win: Window; width: number; theme: string }
export interface Case { view: string; width: number; theme: string; findings: Finding[]; wholes: Whole[]; ms: number }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const viewSvg = (win: Window) => win.document.querySelector('#attention-view > svg');

/**
 * Shows `message` (a 'render') in every frame, then each of `views` in turn, answering the panel's
 * 'need' with `linalg` as the host does, and measures every frame once the view is drawn.
 */
export async function runExample(frames: readonly Frame[], message: { version: number; documentUri: string; [field: string]: unknown }, linalg: unknown,
  views: readonly { name: string; needs: string }[]): Promise<Case[]> {
  const answered = new Map<Window, Element | null>();
  const onMessage = (e: MessageEvent) => {
    const m = e.data as { type?: string; version?: number; documentUri?: string };
    const from = e.source as Window | null;
    if (m?.type !== 'need' || !from) return;
    answered.set(from, viewSvg(from));
    from.postMessage({ type: 'linalg', documentUri: m.documentUri, version: m.version, linalg }, '*');
  };
  window.addEventListener('message', onMessage);
  const cases: Case[] = [];
  try {
    // The previous example's picture is still up until this one is drawn: wait for a new <svg>,
    // or the first view would be measured on the example before.
    const before = new Map(frames.map((f) => [f.win, viewSvg(f.win)]));
    for (const f of frames) f.win.postMessage(message, '*');
    for (const f of frames) {
      await until('the render to be drawn', () => f.win.document.getElementById('attention-root')?.dataset.state === 'ready'
        && viewSvg(f.win) !== before.get(f.win) && viewSvg(f.win));
    }
    for (const v of views) {
      const delivered = new Set(answered.keys());
      for (const f of frames) {
        const t0 = performance.now();
        const tab = f.win.document.querySelector<HTMLButtonElement>(`.al-tab[data-view="${v.name}"]`);
        if (!tab) throw new Error(`no tab for ${v.name}`);
        tab.click();
        await until(`${v.name} to be drawn`, () => viewSvg(f.win)?.getAttribute('data-view') === v.name);
        if (v.needs === 'linalg' && !delivered.has(f.win)) {
          await until(`the linear-algebra numbers for ${v.name}`, () => answered.has(f.win) && viewSvg(f.win) !== answered.get(f.win));
        }
        // Two frames: the layout settled (the summary strip reads its own width).
        await new Promise((r) => f.win.requestAnimationFrame(() => r(undefined)));
        cases.push({ view: v.name, width: f.width, theme: f.theme, findings: measure(f.win.document), wholes: wholes(f.win.document), ms: performance.now() - t0 });
      }
    }
  } finally {
    window.removeEventListener('message', onMessage);
  }
  return cases;
}

// ---- driving the model pages (model-widths.e2e.test.ts) ----

/** Loads the page at `url` in one frame per width, and measures it (root model-root) in each theme class. */
export async function runModelPage(url: string, widths: readonly number[], themes: readonly string[]): Promise<{ width: number; theme: string; findings: Finding[] }[]> {
  const frames = await Promise.all(widths.map((w) => new Promise<HTMLIFrameElement>((resolve) => {
    const f = document.createElement('iframe');
    f.width = String(w); f.height = '900'; f.style.border = '0'; f.style.display = 'block';
    f.onload = () => resolve(f);
    f.src = url;
    document.body.append(f);
  })));
  const out: { width: number; theme: string; findings: Finding[] }[] = [];
  for (const theme of themes) {
    for (const f of frames) f.contentDocument!.body.className = theme;
    // A theme change redraws a moment later (the shell's debounce); then the picture is measured.
    await sleep(250);
    for (const f of frames) {
      const doc = f.contentDocument!;
      await until('the model page to be drawn', () => doc.getElementById('model-root')?.dataset.state === 'ready', 5000).catch(() => {});
      out.push({ width: Number(f.width), theme, findings: measure(doc, 'model-root') });
    }
  }
  for (const f of frames) f.remove();
  return out;
}
