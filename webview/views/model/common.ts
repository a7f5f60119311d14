// What the model views (grid, head, finder, rollout) share: their options, the handle (the same
// shape as the spec views' ViewHandle, so export and `attn render` treat them alike), and heatmaps
// as palette PNGs in an SVG <image>: one bitmap per matrix instead of n² <rect>s, drawn the same in
// the webview, in the --html page and on jsdom (no canvas needed), and exported as it is.
import { color as d3color } from 'd3';
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { heatmapIndices } from '../../../src/core/tensors/heatmap.js';
import type { StatName } from '../../../src/core/tensors/head-stats.js';
import { base64, encodePalettePng, type Deflate } from '../../../src/core/image/png.js';
import type { Theme } from '../../kit/colour.js';
import type { TooltipApi } from '../../kit/tooltip-api.js';
import type { G, Svg, ViewHandle, ViewOptions } from '../../kit/view.js';
import { clip, wrapLines } from '../../kit/format.js';
import type { ModelViewName } from '../../../src/core/vocabulary.js';


/** What a click inside a model view asks for: another view, head, token or statistic. */
export interface ModelPick {
  view?: ModelViewName;
  layer?: number;
  head?: number;
  token?: number;
  stat?: StatName;
  sort?: boolean;
}

export interface ModelViewOptions {
  theme: Theme;
  width: number;
  /** false on jsdom (`attn render`): hover text in <title>s, no listeners. */
  interactive: boolean;
  tooltip?: TooltipApi;
  layer: number;
  head: number;
  /** The token whose rollout row the bar chart shows. */
  token: number;
  /** The statistic the grid is coloured (and maybe sorted) by, and the finder sorted by. */
  stat: StatName;
  /** Sort each layer's heads by `stat` in the grid. */
  sort: boolean;
  /** Arcs: the strongest links kept per token. */
  k: number;
  /** A zlib deflate for the heatmaps' PNGs (the CLI passes node:zlib's); stored blocks without. */
  deflate?: Deflate;
  onPick?: (pick: ModelPick) => void;
  /** A model run's heads switched off (the grid and the head view mark them). */
  ablated?: readonly { layer: number; head: number }[];
  /** Asks for exact weights of a window of a head that came as a picture (the editor's big heads). */
  askWindow?: (layer: number, head: number, i0: number, rows: number, j0: number, cols: number) => void;
}

export type ModelViewFn = (container: HTMLElement, data: ModelViewData, options: ModelViewOptions) => ViewHandle;

/** wireTips reads only interactive, tooltip and onReveal of the spec views' options. */
export function tipOptions(options: ModelViewOptions): ViewOptions {
  return { interactive: options.interactive, tooltip: options.tooltip } as unknown as ViewOptions;
}

const palettes = new WeakMap<Theme, [number, number, number][]>();
/** theme.seq sampled at 256 steps, as RGB triples. */
export function palette(theme: Theme): [number, number, number][] {
  let p = palettes.get(theme);
  if (!p) {
    p = Array.from({ length: 256 }, (_, k) => {
      const c = d3color(theme.seq(k / 255))?.rgb();
      return c ? [c.r, c.g, c.b] as [number, number, number] : [0, 0, 0] as [number, number, number];
    });
    palettes.set(theme, p);
  }
  return p;
}

/**
 * Palette indices of a w × h heatmap of `values` (row-major from `offset`, row stride `stride`):
 * 0 → 0 and `max` → 255; NaN, ±Infinity and negatives are 0.
 */
/** Colour indices as a data: URL of a palette PNG in the theme's sequential colours. */
export function indicesHref(indices: Uint8Array, w: number, h: number, theme: Theme, deflate?: Deflate): string {
  return `data:image/png;base64,${base64(encodePalettePng(w, h, indices, palette(theme), deflate))}`;
}

/** The heatmap as a data: URL of a palette PNG in the theme's sequential colours. */
export function heatmapHref(values: ArrayLike<number>, offset: number, stride: number, w: number, h: number, max: number, theme: Theme, deflate?: Deflate): string {
  return indicesHref(heatmapIndices(values, offset, stride, w, h, max), w, h, theme, deflate);
}

/**
 * The model views count as the spec views do, from 1: "layer 1 head 3", token #51 is the 51st.
 * (Indices stay 0-based inside: in data-* attributes, messages and the command line's flags.)
 */
export const shown = (i: number): number => i + 1;

/**
 * A run's token texts whose positions from `generatedFrom` on are its greedy new tokens (the spec's
 * "generate"): every view's labels mark those, so a reader tells the text from what the model wrote.
 */
export type TokenTexts = readonly string[] & { readonly generatedFrom?: number };

/** The texts with the positions from `from` on marked as generated. */
export function markGenerated(tokens: readonly string[], from: number): TokenTexts {
  return Object.assign([...tokens], { generatedFrom: from });
}

/** Whether position `i` of `tokens` is a generated token. */
export function isGenerated(tokens: TokenTexts, i: number): boolean {
  return tokens.generatedFrom !== undefined && i >= tokens.generatedFrom;
}

/** What follows a generated token's label ("sat"⁺) and its name in hover text. */
export const GENERATED_MARK = '⁺', GENERATED_NAME = ' (generated)';

/** A token's label for a picture: quoted with JSON rules (spaces and newlines visible), clipped; "#51" without tokens; a generated one marked ⁺. */
export function tokenLabel(tokens: TokenTexts, i: number, px = 120, fontSize = 12): string {
  const t = tokens[i];
  if (t === undefined) return `#${shown(i)}`;
  return isGenerated(tokens, i) ? `${clip(JSON.stringify(t), px - fontSize * 0.6, fontSize)}${GENERATED_MARK}` : clip(JSON.stringify(t), px, fontSize);
}

/** "#3 "apple"": a token with its place (counted from 1), for hover text (JSON-quoted, never raw); "(generated)" after a generated one. */
export function tokenName(tokens: TokenTexts, i: number): string {
  const t = tokens[i];
  return t === undefined ? `#${shown(i)}` : `#${shown(i)} ${clip(JSON.stringify(t), 400, 12)}${isGenerated(tokens, i) ? GENERATED_NAME : ''}`;
}

/** "layer 2 head 5" for the head at 0-based (layer, head). */
export function headName(layer: number, head: number): string {
  return `layer ${shown(layer)} head ${shown(head)}`;
}

/**
 * The colour of the hovered row and column and of the keyboard's cell: apart from every colour
 * of the heatmap's palette. The dark theme's accent (yellow) is viridis's strongest weight, so a
 * crosshair over a strong cell vanished; a pink is far from viridis and from the light blues.
 */
export function crosshair(theme: Theme): string {
  return theme.kind === 'dark' ? '#ff4f9a' : theme.accent;
}

export function clampTo(i: number, n: number): number {
  return Number.isInteger(i) && i >= 0 && i < n ? i : 0;
}

/** A finite number for an attribute: NaN, ±Infinity and undefined become `fallback`. */
export function finite(v: number | null | undefined, fallback = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** Line height of a wrapped note. */
export const NOTE_LINE = 15;

/**
 * The lines `text` takes as a note `px` wide (at most `maxLines`; the last cut with "…"), measured at
 * `fontSize`, the picture's (theme.fontSize: VS Code's 13 px in its editors, where a note wrapped at
 * 12 px ran its first line past the picture's edge).
 */
export function noteLines(text: string, px: number, maxLines: number, fontSize: number): string[] {
  return wrapLines(text, px, fontSize, maxLines);
}

/**
 * A muted note over lines (a narrow editor cut one line short with "…"): one <text>, a <tspan> a
 * line, each but the last ending in a space so the text reads whole when copied; the whole sentence
 * in its hover when it had to be cut.
 */
export function wrappedNote(g: G | Svg, theme: Theme, x: number, y: number, text: string, lines: readonly string[], cls = 'note'): void {
  const t = (g as G).append('text').attr('class', cls).attr('x', x).attr('y', y).attr('fill', theme.muted).attr('font-style', 'italic');
  lines.forEach((line, k) => t.append('tspan').attr('x', x).attr('dy', k === 0 ? 0 : NOTE_LINE).text(k < lines.length - 1 ? `${line} ` : line));
  if (lines.join(' ') !== text) t.append('title').text(text);
}
