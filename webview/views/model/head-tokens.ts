// The head as tokens (after BertViz's head view): the queries in a column on the left, the keys on
// the right, and lines between them as thick and opaque as the weight. Hovering or focusing a
// query lights the keys it reads, by weight (lines and shaded keys); a key lights the queries that
// read it. A long head shows a window of WINDOW tokens at a time (the same positions on both sides),
// moved by the wheel, the "earlier"/"later" buttons or the keyboard, and says which range it shows
// and how much of the weight falls outside it: hundreds of tokens stay readable and cheap to draw.
// Past the window (its limit), a lit query also names its strongest keys outside it in one line, from
// its whole row (asked for: 1 × n exact weights, 128 KiB at 32,768 tokens), so a far sink or a
// copied token is never hidden by the window; the drawing stays 2 × WINDOW tokens and ≤ WINDOW² lines.
import type { HeadData, ModelViewData } from '../../../src/core/model-attention/data.js';
import { SENT_PICTURE_MAX, windowWeight } from '../../../src/core/model-attention/data.js';
import { createSvg, emptyView, note, type ViewHandle } from '../../kit/view.js';
import { clip, fmt, wrapLines } from '../../kit/format.js';
import { exactWeight } from './head.js';
import { topEntries } from './rollout.js';
import { clampTo, crosshair, finite, headName, noteLines, shown, tokenLabel, tokenName, wrappedNote, type ModelViewOptions } from './common.js';

/** Most tokens shown on each side at once. */
export const WINDOW = 40;
const ROW_H = 18;
/** How many of a lit query's keys outside the window are named. */
export const OUTSIDE_KEYS = 5;

/** Query i's whole row when the head came whole or a window holding it came (1 × n from key 0), else undefined. */
export function queryRow(head: HeadData, n: number, i: number): ArrayLike<number> | undefined {
  if (head.weights) return head.weights.subarray(i * n, (i + 1) * n);
  const w = head.windows?.find((x) => x.j0 === 0 && x.cols === n && i >= x.i0 && i < x.i0 + x.rows);
  return w ? w.weights.subarray((i - w.i0) * n, (i - w.i0 + 1) * n) : undefined;
}

/** The `count` strongest keys of a row outside keys start … end − 1 (the window shown): [key, weight], strongest first; zeros left out. */
export function strongestOutside(row: ArrayLike<number>, start: number, end: number, count = OUTSIDE_KEYS): [number, number][] {
  const outside = Float64Array.from(row);
  outside.fill(NaN, start, end);
  return topEntries(outside, count).filter(([, w]) => w > 0);
}

/** The first token of the window that shows `token` (WINDOW tokens ending a little after it, kept inside the head). */
export function windowStart(token: number, n: number, size = WINDOW): number {
  if (n <= size) return 0;
  return Math.max(0, Math.min(n - size, token - Math.floor(size / 2)));
}

type Side = 'query' | 'key';

export function renderModelHeadTokens(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header } = data;
  const { theme } = options;
  const n = header.tokens;
  const loaded = data.head;
  const usable = loaded && ((loaded.weights && loaded.weights.length === n * n) || (loaded.picture && loaded.picture.res <= Math.min(n, SENT_PICTURE_MAX)));
  if (!loaded || !usable) {
    return emptyView(container, theme, options.width, 'head-tokens', `${headName(clampTo(options.layer, header.layers), clampTo(options.head, header.heads))}: loading…`);
  }
  const { layer, head } = loaded;
  const tokens = header.tokenTexts;
  const size = Math.min(n, WINDOW);
  let start = windowStart(clampTo(options.token, n), n, size);
  // The token whose weights are lit: the chosen token (when shown), then whatever is hovered or focused.
  let active: { side: Side; i: number } | undefined = { side: 'query', i: clampTo(options.token, n) };

  const width = Math.max(320, Math.min(options.width, 760));
  const colW = Math.round(Math.max(90, Math.min(200, (width - 16) * 0.3)));
  const xQ = 8, xK = width - 8 - colW;
  const intro = `${headName(layer, head)} as tokens: queries on the left read the keys on the right; a line is as strong as its weight. Hover or focus a token to light the tokens it reads (a query) or that read it (a key).`;
  const introLines = noteLines(intro, width - 16, 4, theme.fontSize);
  const top = 44 + introLines.length * 15 + 44;
  // A long head has one line more under the footer: the lit query's strongest keys outside the window.
  const long = n > size;
  const below = top + size * ROW_H + (long ? 74 : 56);
  const height = below + 16;
  const svg = createSvg(container, theme, width, height, `${headName(layer, head)}: ${n} tokens`, 'head-tokens');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`${headName(layer, head)}: ${n} tokens`);
  wrappedNote(svg, theme, 8, 40, intro, introLines);
  svg.append('text').attr('x', xQ + colW).attr('y', top - 10).attr('text-anchor', 'end').attr('font-weight', 'bold').text('queries');
  svg.append('text').attr('x', xK).attr('y', top - 10).attr('font-weight', 'bold').text('keys');
  const range = svg.append('text').attr('class', 'range').attr('x', 8).attr('y', top - 30).attr('fill', theme.muted);
  const lines = svg.append('g').attr('class', 'links').attr('fill', 'none').attr('pointer-events', 'none');
  const body = svg.append('g').attr('class', 'tokens');
  const footer = svg.append('text').attr('class', 'outside').attr('x', 8).attr('y', top + size * ROW_H + 20).attr('fill', theme.muted).attr('font-style', 'italic');
  const beyond = long ? svg.append('text').attr('class', 'beyond').attr('x', 8).attr('y', top + size * ROW_H + 54).attr('fill', theme.muted) : undefined;
  const notes = [intro];
  if (long) notes.push(`${n.toLocaleString('en-US')} tokens, more than the ${size} drawn at once: a window of ${size} around the chosen token, and a lit query's ${OUTSIDE_KEYS} strongest keys outside it named under it`);

  // What was asked and has not come yet: asked once while it is on its way, and again should it come
  // and then be dropped (the editor keeps a few windows; a hover over many queries asks many rows).
  const asked = new Set<string>();
  /** The weight of query i on key j, or undefined while its window is read. */
  const weight = (i: number, j: number): number | undefined => {
    const w = windowWeight(loaded, n, i, j);
    const key = `${start}`;
    // Came (a row window may hold the cell while the window's own block is still on its way): askable again.
    if (loaded.windows?.some((x) => x.i0 === start && x.j0 === start && x.rows === size && x.cols === size)) asked.delete(key);
    else if (w === undefined && !asked.has(key)) { asked.add(key); options.askWindow?.(layer, head, start, size, start, size); }
    return w;
  };
  const rowY = (i: number) => top + (i - start) * ROW_H;
  const x1 = xQ + colW, x2 = xK;

  /** Marks the paging buttons that cannot move the window (set once they are drawn). */
  let paged = () => {};

  /** The window's tokens, built again when the window moves (a light only re-colours them). */
  function build(): void {
    body.selectAll('*').remove();
    const end = start + size;
    range.text(n > size ? `tokens ${shown(start)}–${shown(end - 1)} of ${n}` : `all ${n} tokens`);
    paged();
    for (let o = start; o < end; o++) {
      for (const side of ['query', 'key'] as Side[]) {
        const g = body.append('g').attr('class', 'token').attr('data-side', side).attr('data-token', o)
          .attr('transform', `translate(${side === 'query' ? xQ : xK},${rowY(o)})`).attr('role', 'button');
        if (options.interactive) g.attr('cursor', 'pointer');
        g.append('rect').attr('class', 'shade').attr('width', colW).attr('height', ROW_H - 2).attr('stroke-width', 2);
        const label = `${shown(o)} ${tokenLabel(tokens, o, colW - 14 - 7 * String(shown(o)).length, 12)}`;
        g.append('text').attr('x', side === 'query' ? colW - 4 : 4).attr('y', ROW_H - 6).attr('text-anchor', side === 'query' ? 'end' : 'start').text(label);
        g.append('title');
      }
    }
  }

  /** The shading, the lines and the footer for `active` (or every line, faint, without one). */
  function shade(): void {
    lines.selectAll('*').remove();
    const end = start + size;
    const lit = active && active.i >= start && active.i < end ? active : undefined;
    // The lit token's weights over the window, and its strongest one (lines are relative to it).
    const litW = new Map<number, number>();
    let litMax = 0, missing = false;
    if (lit) {
      for (let o = start; o < end; o++) {
        const w = lit.side === 'query' ? weight(lit.i, o) : weight(o, lit.i);
        if (w === undefined) { missing = true; continue; }
        litW.set(o, w);
        if (w > litMax) litMax = w;
      }
    }
    body.selectAll<SVGGElement, unknown>('g.token').each(function () {
      const side = this.getAttribute('data-side') as Side, o = Number(this.getAttribute('data-token'));
      const w = lit && lit.side !== side ? litW.get(o) : undefined;
      const isLit = !!lit && lit.side === side && lit.i === o;
      const t = w !== undefined && litMax > 0 ? finite(w / litMax) : 0;
      this.querySelector('rect.shade')!.setAttribute('fill', w !== undefined ? theme.seq(t) : theme.bg);
      this.querySelector('rect.shade')!.setAttribute('stroke', isLit ? crosshair(theme) : 'none');
      const text = this.querySelector('text')!;
      text.setAttribute('fill', t > 0.55 ? (theme.kind === 'dark' || theme.kind === 'hc-dark' ? '#000000' : '#ffffff') : theme.fg);
      text.setAttribute('font-weight', isLit ? 'bold' : 'normal');
      this.querySelector('title')!.textContent = `${side} ${tokenName(tokens, o)}${w === undefined ? '' : `; weight ${exactWeight(w)}`}`;
    });
    if (lit) {
      for (const [o, w] of litW) {
        if (!(w > 0) || litMax <= 0) continue;
        const [qi, kj] = lit.side === 'query' ? [lit.i, o] : [o, lit.i];
        lines.append('line').attr('class', 'link').attr('data-query', qi).attr('data-key', kj)
          .attr('x1', x1).attr('y1', rowY(qi) + ROW_H / 2 - 1).attr('x2', x2).attr('y2', rowY(kj) + ROW_H / 2 - 1)
          .attr('stroke', theme.focus).attr('stroke-opacity', finite(0.1 + 0.9 * w / litMax)).attr('stroke-width', finite(0.5 + 3 * w / litMax));
      }
    } else {
      for (let i = start; i < end; i++) {
        for (let j = start; j < end; j++) {
          const w = weight(i, j);
          if (w === undefined || !(w > 0.01)) continue;
          lines.append('line').attr('class', 'link').attr('data-query', i).attr('data-key', j)
            .attr('x1', x1).attr('y1', rowY(i) + ROW_H / 2 - 1).attr('x2', x2).attr('y2', rowY(j) + ROW_H / 2 - 1)
            .attr('stroke', theme.focus).attr('stroke-opacity', finite(Math.min(1, w))).attr('stroke-width', 1);
        }
      }
    }
    // Two lines at most (the sentence ran past the picture at 430 px).
    footer.selectAll('*').remove();
    const said = wrapLines(footerText(lit, litW, litMax, missing), width - 16, 12, 2);
    said.forEach((line, k) => footer.append('tspan').attr('x', 8).attr('dy', k === 0 ? 0 : 15).text(k < said.length - 1 ? `${line} ` : line));
    if (beyond) {
      const text = beyondText(lit);
      const cut = clip(text, width - 16, theme.fontSize);
      beyond.text(cut);
      if (cut !== text) beyond.append('title').text(text);
    }
  }

  /** One line past the window: a lit query's strongest keys outside it (its row asked for), or what to do to see them. */
  function beyondText(lit: { side: Side; i: number } | undefined): string {
    const end = start + size;
    if (!lit || lit.side !== 'query') return `outside tokens ${shown(start)}–${shown(end - 1)}: light a query to name its ${OUTSIDE_KEYS} strongest keys there`;
    const row = queryRow(loaded!, n, lit.i);
    const key = `row ${lit.i}`;
    if (row) asked.delete(key);
    else {
      if (!asked.has(key)) { asked.add(key); options.askWindow?.(layer, head, lit.i, 1, 0, n); }
      return `reading the strongest keys of query ${tokenName(tokens, lit.i)} outside the window…`;
    }
    const top = strongestOutside(row, start, end);
    if (top.length === 0) return `query ${tokenName(tokens, lit.i)} puts no weight on the ${n - size} keys outside the window`;
    return `strongest keys outside the window: ${top.map(([j, w]) => `${tokenName(tokens, j)} ${fmt(w, 3)}`).join(', ')}`;
  }

  /** What the footer says: whose lines, relative to what, and (a query) how much weight lies outside the window. */
  function footerText(lit: { side: Side; i: number } | undefined, litW: Map<number, number>, litMax: number, missing: boolean): string {
    if (missing) return 'reading these weights from the file…';
    if (!lit) return n > size ? `lines: weights above 0.01 among tokens ${shown(start)}–${shown(start + size - 1)}` : 'lines: every weight above 0.01';
    const whose = `${lit.side} ${tokenName(tokens, lit.i)}`;
    let inside = 0;
    for (const w of litW.values()) inside += w;
    const strongest = `lines relative to its strongest weight shown, ${fmt(litMax, 4)}`;
    if (lit.side === 'key') return `${whose}: the weight each query shown puts on it; ${strongest}`;
    return n > size ? `${whose}: ${fmt(inside, 3)} of its weight on the keys shown, ${fmt(Math.max(0, 1 - inside), 3)} outside them; ${strongest}` : `${whose}: ${strongest}`;
  }

  build();
  shade();
  const footerNote = 'each side shows the same tokens; move them with the wheel, the buttons or Page Up / Page Down';
  if (n > size) notes.push(footerNote);
  /** After the window moves or new weights arrive: the interactive view also moves its tab stop. */
  let redrawn = () => {};

  const cleanups: (() => void)[] = [];
  if (options.interactive) {
    const node = svg.node()!;
    // One tab stop: the lit token (or the window's first query); the arrows walk a side, Left/Right cross.
    let focusAt: { side: Side; i: number } = active && active.i >= start && active.i < start + size ? { ...active } : { side: 'query', i: start };
    const elementOf = (p: { side: Side; i: number }) => node.querySelector<SVGGElement>(`g.token[data-side="${p.side}"][data-token="${p.i}"]`);
    const stop = () => {
      node.querySelectorAll('g.token[tabindex]').forEach((e) => e.removeAttribute('tabindex'));
      elementOf(focusAt)?.setAttribute('tabindex', '0');
    };
    const light = (p: { side: Side; i: number } | undefined) => {
      active = p;
      shade();
    };
    redrawn = stop;
    const moveTo = (p: { side: Side; i: number }) => {
      const i = Math.max(0, Math.min(n - 1, p.i));
      const before = start;
      if (i < start) start = i;
      else if (i >= start + size) start = i - size + 1;
      focusAt = { side: p.side, i };
      if (start !== before) build();
      light(focusAt);
      stop();
      (elementOf(focusAt) as unknown as HTMLElement | null)?.focus();
      showTip(focusAt);
    };
    const showTip = (p: { side: Side; i: number }) => {
      const el = elementOf(p);
      if (!el) return;
      const title = el.querySelector('title')?.textContent ?? '';
      options.tooltip?.show([title, p.side === 'query' ? 'the keys it reads light up' : 'the queries that read it light up'], el);
    };
    const placeOf = (t: EventTarget | null): { side: Side; i: number } | undefined => {
      const g = (t as Element | null)?.closest?.('g.token');
      if (!g) return undefined;
      return { side: g.getAttribute('data-side') as Side, i: Number(g.getAttribute('data-token')) };
    };
    const scroll = (by: number) => {
      const next = Math.max(0, Math.min(n - size, start + by));
      if (next === start) return;
      start = next;
      if (focusAt.i < start || focusAt.i >= start + size) focusAt = { side: focusAt.side, i: Math.max(start, Math.min(start + size - 1, focusAt.i)) };
      build();
      shade();
      stop();
    };
    const over = (e: Event) => {
      const p = placeOf(e.target);
      if (!p || (active && active.side === p.side && active.i === p.i)) return;
      light(p);
      showTip(p);
    };
    const focus = (e: Event) => {
      const p = placeOf(e.target);
      if (!p) return;
      focusAt = p;
      if (!active || active.side !== p.side || active.i !== p.i) light(p);
      stop();
      showTip(p);
    };
    const key = (e: KeyboardEvent) => {
      const p = placeOf(e.target);
      if (!p) return;
      const moves: Record<string, () => void> = {
        ArrowUp: () => moveTo({ side: p.side, i: p.i - 1 }),
        ArrowDown: () => moveTo({ side: p.side, i: p.i + 1 }),
        ArrowLeft: () => moveTo({ side: 'query', i: p.i }),
        ArrowRight: () => moveTo({ side: 'key', i: p.i }),
        PageUp: () => moveTo({ side: p.side, i: p.i - size }),
        PageDown: () => moveTo({ side: p.side, i: p.i + size }),
        Home: () => moveTo({ side: p.side, i: 0 }),
        End: () => moveTo({ side: p.side, i: n - 1 }),
      };
      const move = moves[e.key];
      if (!move) return;
      e.preventDefault();
      move();
    };
    const wheel = (e: WheelEvent) => {
      if (n <= size) return;
      const by = Math.sign(e.deltaY) * Math.max(1, Math.round(Math.abs(e.deltaY) / ROW_H));
      const before = start;
      scroll(by);
      if (start !== before) e.preventDefault();
    };
    const leave = () => options.tooltip?.hide();
    node.addEventListener('pointerover', over);
    node.addEventListener('focusin', focus);
    node.addEventListener('keydown', key);
    node.addEventListener('wheel', wheel, { passive: false });
    node.addEventListener('pointerleave', leave);
    cleanups.push(() => {
      node.removeEventListener('pointerover', over);
      node.removeEventListener('focusin', focus);
      node.removeEventListener('keydown', key);
      node.removeEventListener('wheel', wheel);
      node.removeEventListener('pointerleave', leave);
    });
    if (n > size) {
      // Buttons for the pointer and the keyboard: a window earlier or later. At either end the one that
      // cannot move is disabled (muted, aria-disabled, out of the tab order), not silently inert.
      const button = (label: string, x: number, anchor: string, by: number) => {
        const b = svg.append('text').attr('class', 'scroll').attr('data-by', by).attr('x', x).attr('y', below).attr('text-anchor', anchor)
          .attr('role', 'button').text(label);
        b.on('click', () => scroll(by));
        b.on('keydown', (e: KeyboardEvent) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          scroll(by);
        });
        return b;
      };
      const earlier = button(`▲ ${size} earlier`, 8, 'start', -size);
      const later = button(`${size} later ▼`, width - 8, 'end', size);
      paged = () => {
        for (const [b, off] of [[earlier, start <= 0], [later, start >= n - size]] as const) {
          b.attr('aria-disabled', String(off)).attr('fill', off ? theme.muted : theme.focus).attr('cursor', off ? 'default' : 'pointer')
            .attr('tabindex', off ? null : 0);
        }
        // The keyboard on a button that just reached its end goes to the other one, not to the page.
        const focused = node.ownerDocument.activeElement;
        for (const [b, other] of [[earlier, later], [later, earlier]]) {
          if (focused === b.node() && b.attr('aria-disabled') === 'true') (other.node() as unknown as HTMLElement).focus();
        }
      };
      paged();
    }
    stop();
  } else if (n > size) {
    note(svg, theme, 8, below, `the picture shows tokens ${shown(start)}–${shown(start + size - 1)}; --token N picks the window`);
  }
  return {
    svg: svg.node()!, notes,
    refresh: () => { shade(); redrawn(); },
    destroy: () => { cleanups.forEach((f) => f()); svg.remove(); },
  };
}
