// Colours for every view, always as concrete values (never CSS variables) so that the SVG a view
// draws is standalone: the same picture in the panel, in an exported file and from `attn render`.
// The shells read VS Code's theme from the page (webview/shell/theme.ts) and redraw when it changes.
import { interpolateViridis, interpolateBlues, color as d3color } from 'd3';
import type { ThemeKind } from '../../src/core/vocabulary.js';

export interface Theme {
  kind: ThemeKind;
  fg: string;
  bg: string;
  /** Secondary text, axis lines. */
  muted: string;
  /** Thin grid lines and cell borders. */
  grid: string;
  /** Focus and selection outline. */
  focus: string;
  /** Highlight of the hovered row, column or token. */
  accent: string;
  /** Masked cells: fill and hatch lines. */
  masked: string;
  maskedHatch: string;
  font: string;
  mono: string;
  fontSize: number;
  /** One colour per head (colour-blind safe, Okabe–Ito order). */
  heads: readonly string[];
  /** Sequential scale 0..1 → colour, low values close to the background. */
  seq: (t: number) => string;
  /** Diverging scale −1..1 → colour, for signed numbers (weights of W, vectors). */
  div: (t: number) => string;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Ubuntu, "Helvetica Neue", sans-serif';
const MONO = 'ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace';

// Okabe & Ito (2008), the palette for colour-blind readers; yellow is moved last on light themes.
const OKABE_DARK = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#CC79A7', '#D55E00', '#0072B2', '#BBBBBB'];
const OKABE_LIGHT = ['#D55E00', '#0072B2', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

function diverging(neg: string, mid: string, pos: string): (t: number) => string {
  const n = d3color(neg)!.rgb(), m = d3color(mid)!.rgb(), p = d3color(pos)!.rgb();
  return (t: number) => {
    const c = Math.max(-1, Math.min(1, Number.isFinite(t) ? t : 0));
    const a = c < 0 ? n : p;
    const s = Math.abs(c);
    const mix = (x: number, y: number) => Math.round(x + (y - x) * s);
    return `rgb(${mix(m.r, a.r)}, ${mix(m.g, a.g)}, ${mix(m.b, a.b)})`;
  };
}

export function makeTheme(kind: ThemeKind = 'light', overrides: Partial<Pick<Theme, 'fg' | 'bg' | 'focus' | 'font' | 'mono' | 'fontSize'>> = {}): Theme {
  const dark = kind === 'dark' || kind === 'hc-dark';
  const hc = kind === 'hc-dark' || kind === 'hc-light';
  const bg = overrides.bg ?? (dark ? (hc ? '#000000' : '#1e1e1e') : '#ffffff');
  const fg = overrides.fg ?? (dark ? (hc ? '#ffffff' : '#d4d4d4') : (hc ? '#000000' : '#1f1f1f'));
  const base: Theme = {
    kind, fg, bg,
    muted: hc ? fg : dark ? '#9d9d9d' : '#616161',
    grid: hc ? fg : dark ? '#3c3c3c' : '#d8d8d8',
    focus: overrides.focus ?? (hc ? (dark ? '#f38518' : '#0f4a85') : dark ? '#0078d4' : '#005fb8'),
    accent: hc ? (dark ? '#f38518' : '#b5200d') : dark ? '#ffcc00' : '#c2410c',
    masked: hc ? bg : dark ? '#2d2d2d' : '#eeeeee',
    maskedHatch: hc ? fg : dark ? '#6b6b6b' : '#9e9e9e',
    font: overrides.font ?? FONT,
    mono: overrides.mono ?? MONO,
    fontSize: overrides.fontSize ?? 12,
    heads: dark ? OKABE_DARK : OKABE_LIGHT,
    // Dark themes: viridis from dark purple (low) to yellow (high). Light themes: a single-hue blue
    // ramp from near-white (low) to deep blue (high). Both read the same without colour vision:
    // lightness alone orders them, and weak cells recede into the background.
    seq: dark ? (t) => interpolateViridis(clamp01(t)) : (t) => interpolateBlues(0.04 + 0.96 * clamp01(t)),
    div: dark ? diverging('#4393c3', '#2a2a2a', '#d6604d') : diverging('#2166ac', '#f7f7f7', '#b2182b'),
  };
  return base;
}

function clamp01(t: number): number {
  return Number.isFinite(t) ? Math.max(0, Math.min(1, t)) : 0;
}

/** Black or white, whichever reads better on `background`. */
export function textOn(background: string): string {
  const c = d3color(background)?.rgb();
  if (!c) return '#000000';
  const lin = (v: number) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const l = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  return l > 0.4 ? '#000000' : '#ffffff';
}

/** Normalise any CSS colour (rgb(), #rgb, names) to #rrggbb, or undefined if it cannot be parsed. */
export function toHex(c: string | undefined): string | undefined {
  if (!c) return undefined;
  const parsed = d3color(c.trim());
  return parsed ? parsed.formatHex() : undefined;
}
