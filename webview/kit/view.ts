// What every view shares: its options, its handle, and small SVG helpers. A view is a function
// (container, data, options) → handle that appends one <svg> to the container, so the panel, the
// export and `attn render` (on jsdom, interactive: false) all draw the very same picture.
import { select, type BaseType, type Selection } from 'd3';
import type { AttentionData } from '../../src/core/result/attention-data.js';
import type { RevealMessage } from '../../src/protocol/panel.js';
import type { Theme } from './colour.js';
import type { TooltipApi } from './tooltip-api.js';
import { clip, wrapLines } from './format.js';

export type { MatrixMode, Role } from '../../src/core/vocabulary.js';
import type { MatrixMode, Role } from '../../src/core/vocabulary.js';
export type RevealTarget = RevealMessage['target'];

export interface Selection_ {
  head: number | 'all';
  input: number;
  token: number;
}

export interface ViewOptions extends Selection_ {
  theme: Theme;
  /** Width available, in CSS pixels; views lay themselves out from 300 to 1600 and beyond. */
  width: number;
  matrixMode: MatrixMode;
  /** Which matrix the projection view multiplies by (its head is options.head, or 0 for 'all'). */
  projection: Role;
  /** Heads hidden by the arcs legend toggles. */
  hiddenHeads?: readonly number[];
  /** false on jsdom (`attn render`): hover text goes into <title> elements, no listeners, no canvas. */
  interactive: boolean;
  tooltip?: TooltipApi;
  onReveal?: (target: RevealTarget) => void;
  /** The user picked something inside the view (a token, a head toggle): the panel stores it and redraws. */
  onPick?: (change: Partial<Selection_> & { hiddenHeads?: number[] }) => void;
}

export interface ViewHandle {
  /** The picture itself: what Export SVG / PNG serialises. */
  readonly svg: SVGSVGElement;
  /** Canvases painted instead of SVG cells for large inputs (matrix view), one per head. */
  readonly canvases?: readonly HTMLCanvasElement[];
  /** Notes written on the view ("showing the 3 strongest links…"), also for tests. */
  readonly notes: readonly string[];
  /** New data arrived that the view reads in place (a window of a big head): show it without a redraw. */
  refresh?(): void;
  /** Paints now what waits to scroll into sight (canvases below the first screen): before an export. */
  paintAll?(): void;
  destroy(): void;
}

export type ViewFn = (container: HTMLElement, data: AttentionData, options: ViewOptions) => ViewHandle;

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type G = Selection<SVGGElement, unknown, null, undefined>;

let uid = 0;
/** A prefix for ids inside one SVG (patterns, clip paths), unique within the document. */
export function nextId(prefix: string): string {
  uid += 1;
  return `al-${prefix}-${uid}`;
}

/** The view's <svg>, standalone: xmlns, size, font, colours and a background as attributes. */
export function createSvg(container: HTMLElement, theme: Theme, width: number, height: number, label: string, view: string): Svg {
  const svg = select(container).append('svg')
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('class', `attention-view attention-${view}`)
    .attr('data-view', view)
    .attr('width', Math.ceil(width))
    .attr('height', Math.ceil(height))
    .attr('viewBox', `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`)
    .attr('font-family', theme.font)
    .attr('font-size', theme.fontSize)
    .attr('fill', theme.fg)
    .attr('role', 'group')
    .attr('aria-label', label);
  svg.append('rect').attr('class', 'bg').attr('width', '100%').attr('height', '100%').attr('fill', theme.bg);
  return svg as unknown as Svg;
}

/** A diagonal hatch for masked cells: different from every colour of the scale, not only by hue. */
export function hatch(svg: Svg, theme: Theme): string {
  const id = nextId('hatch');
  const p = svg.append('defs').append('pattern').attr('id', id).attr('patternUnits', 'userSpaceOnUse')
    .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)');
  p.append('rect').attr('width', 6).attr('height', 6).attr('fill', theme.masked);
  p.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6).attr('stroke', theme.maskedHatch).attr('stroke-width', 2);
  return `url(#${id})`;
}

/** A line of explanatory text on the view (notes, "say so on the plot"). */
/** A muted line of explanation; clipped to the picture's width (the whole sentence stays in its hover). */
export function note(g: G | Svg, theme: Theme, x: number, y: number, text: string): void {
  const node = (g as G).node() as Element | null;
  const svgEl = node?.closest?.('svg') ?? node;
  const width = Number(svgEl?.getAttribute('width')) || Infinity;
  const shown = clip(text, width - x - 8, theme.fontSize);
  const t = (g as G).append('text').attr('class', 'note').attr('x', x).attr('y', y).attr('fill', theme.muted)
    .attr('font-style', 'italic').text(shown);
  if (shown !== text) t.append('title').text(text);
}

/** Notes laid out to wrap: each note's lines (each at most `px` wide) and the height they all take at `lineH` a line. */
export interface NoteBlock { lines: string[][]; lineH: number; height: number }

/** Lay out `notes` to wrap within `px` pixels (a narrow panel gets more lines, not a cut sentence). */
export function layoutNotes(notes: readonly string[], px: number, fontSize: number, lineH = 16): NoteBlock {
  const lines = notes.map((t) => wrapLines(t, px, fontSize, 4));
  return { lines, lineH, height: lines.reduce((s, l) => s + l.length, 0) * lineH };
}

/** Draws notes laid out by layoutNotes from baseline `y`: muted, italic, one <text> per line; a note still cut has its whole text in a hover. */
export function drawNotes(g: G | Svg, theme: Theme, x: number, y: number, block: NoteBlock, notes: readonly string[]): void {
  let k = 0;
  block.lines.forEach((lines, n) => {
    const cut = lines.join(' ') !== notes[n];
    for (const line of lines) {
      const t = (g as G).append('text').attr('class', 'note').attr('x', x).attr('y', y + k * block.lineH).attr('fill', theme.muted)
        .attr('font-style', 'italic').text(line);
      if (cut) t.append('title').text(notes[n]);
      k += 1;
    }
  });
}

export function clampIndex(i: number, n: number): number {
  return Number.isInteger(i) && i >= 0 && i < n ? i : 0;
}

/** The head a single-head view shows: the selected one, or the first when "all" is selected. */
export function singleHead(data: AttentionData, options: Selection_): number {
  const input = data.inputs[clampIndex(options.input, data.inputs.length)];
  const n = input?.heads.length ?? 0;
  return options.head === 'all' ? 0 : clampIndex(options.head, n);
}

/**
 * An empty view with a sentence, for data the view cannot draw (no inputs, no tokens, no "train"
 * section), wrapped to the picture's width: on one line it ran past a 430 px panel's edge. Each line
 * but the last keeps its trailing space, so the text still reads as the sentence.
 */
export function emptyView(container: HTMLElement, theme: Theme, width: number, view: string, message: string): ViewHandle {
  const pad = 8;
  const lines = wrapLines(message, Math.max(width, 120) - 2 * pad, theme.fontSize, 8);
  const lineH = Math.round(theme.fontSize * 1.35);
  const svg = createSvg(container, theme, width, 40 + (lines.length - 1) * lineH, message, view);
  const t = svg.append('text').attr('class', 'message').attr('x', pad).attr('y', 24).attr('fill', theme.muted);
  if (lines.length === 1) t.text(lines[0]);
  else lines.forEach((line, k) => t.append('tspan').attr('x', pad).attr('dy', k === 0 ? 0 : lineH).text(k < lines.length - 1 ? `${line} ` : line));
  if (lines.join(' ') !== message) t.append('title').text(message);
  return { svg: svg.node()!, notes: [message], destroy: () => svg.remove() };
}

/**
 * Writes `text` into a label cut to `px` pixels; a cut label carries the whole text in a <title>,
 * its hover (a cut axis label or caption with no hover could never be read whole).
 */
export function fitText<D, P extends BaseType, PD>(t: Selection<SVGTextElement, D, P, PD>, text: string, px: number, fontSize: number): void {
  const shown = clip(text, px, fontSize);
  t.text(shown);
  if (shown !== text) t.append('title').text(text);
}

/** A heading and the lines it takes: a picture lays itself out below `lines.length` lines. */
export interface Heading { lines: string[]; lineH: number; size: number }

/**
 * Lay out a heading of `px` pixels at most: bold headings measure 1.1 times their size. Its
 * `extra` is the height its lines past the first add to the picture.
 */
export function layoutHeading(text: string, px: number, size: number, bold = true, maxLines = 3): Heading & { extra: number } {
  const lines = wrapLines(text, px, bold ? size * 1.1 : size, maxLines);
  const lineH = Math.round(size * 1.3);
  return { lines, lineH, size, extra: (lines.length - 1) * lineH };
}

/** Draws a heading laid out by layoutHeading: one <text> (its class given), a <tspan> per line; the whole text in its hover when cut. */
export function drawHeading(g: G | Svg, cls: string, x: number, y: number, h: Heading, full: string): void {
  const t = (g as G).append('text').attr('class', cls).attr('x', x).attr('y', y).attr('font-weight', 600);
  if (h.lines.length === 1) t.text(h.lines[0]);
  else h.lines.forEach((line, k) => t.append('tspan').attr('x', x).attr('dy', k === 0 ? 0 : h.lineH).text(line));
  if (h.lines.join(' ') !== full) t.append('title').text(full);
}
