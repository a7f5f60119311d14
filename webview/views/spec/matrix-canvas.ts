// The matrix view's canvas: for large inputs the cells are painted into pixels rather than drawn
// as one SVG <rect> each.
import { rgb, select } from 'd3';
import type { AttentionData, InputData } from '../../../src/core/result/attention-data.js';
import type { Theme } from '../../kit/colour.js';
import { cellLines } from './matrix-text.js';
import { clampIndex, type ViewOptions } from '../../kit/view.js';
import type { Box } from '../../kit/tooltip-api.js';

/** Where a head's canvas goes, in the view's coordinates. */
export interface CanvasBox { x: number; y: number; w: number; h: number; head: number }

export interface CanvasContext {
  container: HTMLElement;
  boxes: readonly CanvasBox[];
  data: AttentionData;
  input: InputData;
  n: number;
  /** Cell size in CSS pixels. */
  cell: number;
  options: ViewOptions;
  theme: Theme;
  /** Every cell of a head, row by row: 0..255 on the colour table, or −1 for a masked cell. */
  levels: (head: number) => Int16Array;
  lut: readonly [number, number, number][];
  highlight: (head: number, i: number, j: number) => void;
  clear: () => void;
}

/**
 * One canvas per head over the SVG's empty grid, with the same hover (the cell's dot product, its
 * row and column outlined), click (reveal and pick the query) and arrow keys as SVG cells have.
 */
export function paintCanvases({ container, boxes, data, input, n, cell, options, theme, levels, lut, highlight, clear }: CanvasContext):
  { canvases: HTMLCanvasElement[]; paintAll: () => void; cleanup: () => void } {
  const canvases: HTMLCanvasElement[] = [];
  const wrap = select(container).append('div').attr('class', 'canvas-layer');
  // The first screen first: a canvas that starts below the window's height (the view's top is never
  // above the window's) is painted when it scrolls into sight, its head's weights read only then
  // (1,024 tokens × 4 heads stand 4,000 px tall, one head to a screen). Without an observer, all now.
  const win = container.ownerDocument.defaultView;
  const screen = win?.innerHeight || Infinity;
  const Observer = win?.IntersectionObserver;
  const later = new Map<Element, () => void>();
  const observer = Observer ? new Observer((entries) => {
    for (const entry of entries) {
      const paint = entry.isIntersecting ? later.get(entry.target) : undefined;
      if (!paint) continue;
      later.delete(entry.target);
      observer?.unobserve(entry.target);
      paint();
    }
  }, { rootMargin: '200px' }) : undefined;
  for (const box of boxes) {
    const head = input.heads[box.head];
    const canvas = wrap!.append('canvas').attr('class', 'matrix-canvas').node()!;
    canvases.push(canvas);
    const dpr = container.ownerDocument.defaultView?.devicePixelRatio ?? 1;
    canvas.width = Math.ceil(box.w * dpr);
    canvas.height = Math.ceil(box.h * dpr);
    canvas.style.width = `${box.w}px`;
    canvas.style.height = `${box.h}px`;
    canvas.style.left = `${box.x}px`;
    canvas.style.top = `${box.y}px`;
    canvas.dataset.x = String(box.x);
    canvas.dataset.y = String(box.y);
    canvas.dataset.head = String(box.head);
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.setAttribute('aria-label', `${n}×${n} attention matrix, head "${head.name}": arrow keys move between cells, Enter shows the query's token in the spec`);
    const paint = () => {
      const ctx = canvas.getContext('2d');
      // Cells of 6 px and more have a 1 px border in the background colour, as the SVG's cells do.
      if (ctx) paintCells(ctx, canvas.width, canvas.height, n, cell * dpr, levels(box.head), lut, theme, cell >= 6 ? Math.max(1, Math.round(dpr)) : 0);
    };
    if (!observer || box.y < screen) paint();
    else {
      later.set(canvas, paint);
      observer.observe(canvas);
    }
    let active: [number, number] = [clampIndex(options.token, n), 0];
    const at = (e: PointerEvent): [number, number] | undefined => {
      const r = canvas.getBoundingClientRect();
      const i = Math.floor((e.clientY - r.top) / cell), j = Math.floor((e.clientX - r.left) / cell);
      return i >= 0 && j >= 0 && i < n && j < n ? [i, j] : undefined;
    };
    // The focused cell's own rectangle: the tooltip goes below or above it, not over it (anchored to
    // the whole canvas it had no room below or above, and covered the cell being read).
    const cellBox = (i: number, j: number): Box => {
      const r = canvas.getBoundingClientRect();
      return { left: r.left + j * cell, top: r.top + i * cell, right: r.left + (j + 1) * cell, bottom: r.top + (i + 1) * cell };
    };
    const show = (i: number, j: number, anchor: { x: number; y: number } | Box) => {
      highlight(box.head, i, j);
      options.tooltip?.show(cellLines(data, input, box.head, i, j), anchor);
    };
    const move = (e: Event) => {
      const p = at(e as PointerEvent);
      if (!p) return;
      active = p;
      show(p[0], p[1], { x: (e as PointerEvent).clientX, y: (e as PointerEvent).clientY });
    };
    const leave = () => { clear(); options.tooltip?.hide(); };
    const click = (e: Event) => {
      const p = at(e as PointerEvent);
      if (!p) return;
      options.onReveal?.({ kind: 'token', input: options.input, token: p[0] });
      options.onPick?.({ token: p[0] });
    };
    const key = (e: Event) => {
      const ke = e as KeyboardEvent;
      const [i, j] = active;
      const d: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (ke.key === 'Escape') { leave(); return; }
      // Enter or Space does what a click does, as on the SVG's cells: the query's token shown in the spec and picked.
      if (ke.key === 'Enter' || ke.key === ' ') {
        ke.preventDefault();
        options.onReveal?.({ kind: 'token', input: options.input, token: i });
        options.onPick?.({ token: i });
        return;
      }
      const step = d[ke.key];
      if (!step) return;
      ke.preventDefault();
      active = [Math.max(0, Math.min(n - 1, i + step[0])), Math.max(0, Math.min(n - 1, j + step[1]))];
      show(active[0], active[1], cellBox(active[0], active[1]));
    };
    canvas.addEventListener('pointermove', move);
    canvas.addEventListener('pointerleave', leave);
    canvas.addEventListener('click', click);
    canvas.addEventListener('keydown', key);
    canvas.addEventListener('focus', () => show(active[0], active[1], cellBox(active[0], active[1])));
    canvas.addEventListener('blur', leave);
  }

  const paintAll = () => {
    for (const [canvas, paint] of later) {
      observer?.unobserve(canvas);
      paint();
    }
    later.clear();
  };
  return { canvases, paintAll, cleanup: () => { observer?.disconnect(); wrap.remove(); } };
}


/**
 * Paints every cell straight into the canvas's pixels: a million cells (1024 tokens) cost one
 * pass over the pixels instead of a million fillRect calls, each pixel one 32-bit write of a colour
 * packed beforehand. `levels` holds each cell's 0..255 on the colour table, or −1 for a masked cell,
 * which gets the diagonal hatch. `borderPx` > 0 draws each cell's top and left edge that many
 * pixels wide in the background colour (the lines between cells, as the SVG's cell strokes).
 */
export function paintCells(ctx: CanvasRenderingContext2D, width: number, height: number, n: number, cellPx: number,
  levels: Int16Array, lut: readonly [number, number, number][], theme: Theme, borderPx = 0): void {
  const img = ctx.createImageData(width, height);
  const px = new Uint32Array(img.data.buffer, img.data.byteOffset, width * height);
  // Colours packed as the pixel buffer holds them (RGBA bytes, whatever the platform's byte order).
  const pack = (r: number, g: number, b: number) => new Uint32Array(Uint8ClampedArray.of(r, g, b, 255).buffer)[0];
  const m = rgb(theme.masked), hatch = rgb(theme.maskedHatch);
  const plain = pack(m.r, m.g, m.b), line = pack(hatch.r, hatch.g, hatch.b);
  const colours = Uint32Array.from(lut, (c) => pack(c[0], c[1], c[2]));
  const back = rgb(theme.bg), border = pack(back.r, back.g, back.b);
  const column = new Int32Array(width);
  const onEdge = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    column[x] = Math.min(n - 1, Math.floor(x / cellPx));
    onEdge[x] = x - Math.floor(x / cellPx) * cellPx < borderPx ? 1 : 0;
  }
  for (let y = 0; y < height; y++) {
    const cellRow = Math.floor(y / cellPx);
    const rowAt = Math.min(n - 1, cellRow) * n;
    const o = y * width;
    if (y - cellRow * cellPx < borderPx) {
      px.fill(border, o, o + width);
      continue;
    }
    for (let x = 0; x < width; x++) {
      const k = levels[rowAt + column[x]];
      px[o + x] = onEdge[x] ? border : k < 0 ? ((x + y) % 6 < 1.5 ? line : plain) : colours[k];
    }
  }
  ctx.putImageData(img, 0, 0);
}
