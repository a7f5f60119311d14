// The matrix's canvas for large inputs: every cell's level read straight from the head's arrays
// (levelsOf) is the one value() and the colour scale give cell by cell, in every mode; and paintCells'
// packed 32-bit pixels are, byte for byte, the RGBA the per-pixel loop it replaced wrote; and which
// matrices the panel paints on a canvas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rgb } from 'd3';
import { JSDOM, VirtualConsole } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { MATRIX_MODES } from '../../../../../src/core/vocabulary.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { paintCells } from '../../../../../webview/views/spec/matrix-canvas.js';
import { levelsOf, renderMatrix, value } from '../../../../../webview/views/spec/matrix.js';
import { exampleText } from '../../../../support/specs.js';

const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
const input = data.inputs[0];
const n = input.tokens.length;

test('levelsOf gives every cell the level value() and the scale give it, in every mode', () => {
  for (const mode of MATRIX_MODES) {
    for (const head of input.heads.slice(0, 3)) {
      const domain = { lo: -0.7, hi: 2.4 };
      // The scale as the view had it per cell: a NaN (an impossible domain) is the middle colour.
      const norm = (v: number) => {
        const t = (v - domain.lo) / (domain.hi - domain.lo);
        return Number.isFinite(t) ? Math.max(0, Math.min(1, t)) : 0.5;
      };
      const levels = levelsOf(head, mode, n, domain);
      let masked = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        const v = value(head, mode, i, j);
        const want = v === null ? -1 : Math.max(0, Math.min(255, Math.round(norm(v) * 255)));
        if (want < 0) masked++;
        assert.equal(levels[i * n + j], want, `${mode}, head ${head.name}, cell ${i},${j}`);
      }
      assert.ok(masked > 0, 'the causal mask hides cells');
    }
  }
  // A domain too narrow for doubles gives every unmasked cell the middle colour, as before.
  const flat = levelsOf(input.heads[0], 'scores', n, { lo: Infinity, hi: Infinity });
  assert.ok(flat.every((k) => k === -1 || k === 128), 'masked or the middle colour');
});

/** The per-pixel painter paintCells replaced, as the reference. */
function referencePixels(width: number, height: number, cellPx: number, levels: Int16Array, lut: [number, number, number][], borderPx = 0): Uint8ClampedArray {
  const theme = makeTheme('light');
  const px = new Uint8ClampedArray(width * height * 4);
  const m = rgb(theme.masked), hatch = rgb(theme.maskedHatch), bg = rgb(theme.bg);
  for (let y = 0; y < height; y++) {
    const i = Math.min(n - 1, Math.floor(y / cellPx));
    for (let x = 0; x < width; x++) {
      const j = Math.min(n - 1, Math.floor(x / cellPx));
      const k = levels[i * n + j];
      const o = (y * width + x) * 4;
      if (x % cellPx < borderPx || y % cellPx < borderPx) {
        px[o] = bg.r; px[o + 1] = bg.g; px[o + 2] = bg.b;
      } else if (k < 0) {
        const line = (x + y) % 6 < 1.5;
        px[o] = line ? hatch.r : m.r; px[o + 1] = line ? hatch.g : m.g; px[o + 2] = line ? hatch.b : m.b;
      } else {
        const c = lut[k];
        px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2];
      }
      px[o + 3] = 255;
    }
  }
  return px;
}

const lightTheme = makeTheme('light');
const lightLut = Array.from({ length: 256 }, (_, k) => { const c = rgb(lightTheme.seq(k / 255)); return [c.r, c.g, c.b] as [number, number, number]; });
const headLevels = levelsOf(input.heads[0], 'weights', n, { lo: 0, hi: 0.25 });

/** The RGBA bytes paintCells puts on a canvas of n cells of `cellPx`, through a 2D context that keeps them. */
function painted(cellPx: number, borderPx = 0): { width: number; height: number; pixels: Uint8ClampedArray } {
  const width = Math.ceil(n * cellPx), height = Math.ceil(n * cellPx);
  let pixels: Uint8ClampedArray | undefined;
  const ctx = {
    createImageData: (w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4), width: w, height: h }),
    putImageData: (img: { data: Uint8ClampedArray }) => { pixels = img.data; },
  } as unknown as CanvasRenderingContext2D;
  paintCells(ctx, width, height, n, cellPx, headLevels, lightLut, lightTheme, borderPx);
  assert.ok(pixels, 'paintCells put its image on the canvas');
  return { width, height, pixels };
}

test('paintCells writes the same RGBA bytes as the per-pixel loop, hatched masks included', () => {
  for (const cellPx of [1, 2.5, 3]) {
    const { width, height, pixels } = painted(cellPx);
    assert.deepEqual(pixels, referencePixels(width, height, cellPx, headLevels, lightLut), `cells of ${cellPx} px`);
  }
});

test('paintCells draws the lines between cells in the background colour, as the SVG cells\' strokes, when asked', () => {
  for (const [cellPx, borderPx] of [[6, 1], [12, 2], [7.5, 1]]) {
    const { width, height, pixels } = painted(cellPx, borderPx);
    assert.deepEqual(pixels, referencePixels(width, height, cellPx, headLevels, lightLut, borderPx), `cells of ${cellPx} px, lines of ${borderPx}`);
    // The top-left pixel is a line's; the one inside the first cell is the cell's colour.
    assert.deepEqual([...pixels.subarray(0, 3)], [255, 255, 255]);
    const inside = (borderPx * width + borderPx) * 4;
    assert.ok(headLevels[0] >= 0, 'the first query attends to itself: its first cell is not masked');
    assert.deepEqual([...pixels.subarray(inside, inside + 3)], lightLut[headLevels[0]]);
  }
});

test('one head of 64 tokens in the panel is painted on a canvas, in a frame, with arrows and Enter; 32 tokens stay one <rect> per cell', () => {
  const long = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  // jsdom has no 2D context (the canvas stays blank here, its pixels are paintCells' test above): its warning is kept out of the output.
  const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true, virtualConsole: new VirtualConsole() });
  const root = dom.window.document.getElementById('r') as unknown as HTMLElement;
  const options = { theme: makeTheme('light'), width: 700, head: 0, input: 0, token: 0, matrixMode: 'weights' as const, projection: 'wq' as const, interactive: true };
  const reveals: unknown[] = [], picks: unknown[] = [];
  const big = renderMatrix(root, long, { ...options, onReveal: (t) => reveals.push(t), onPick: (c) => picks.push(c) });
  assert.equal(big.canvases?.length, 1);
  // The keyboard, as on the SVG's cells: arrows move, Enter shows the query's token and picks it.
  const canvas = big.canvases![0];
  const key = (k: string) => canvas.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  key('ArrowDown');
  key('ArrowDown');
  key('Enter');
  assert.deepEqual(reveals, [{ kind: 'token', input: 0, token: 2 }]);
  assert.deepEqual(picks, [{ token: 2 }]);
  key('ArrowDown');
  key(' ');
  assert.deepEqual(picks, [{ token: 2 }, { token: 3 }], 'Space picks too, as on the SVG cells');
  assert.match(canvas.getAttribute('aria-label')!, /Enter shows the query's token/);
  assert.equal(big.svg.querySelectorAll('rect.cell').length, 0);
  assert.equal(big.svg.querySelectorAll('g.head-matrix rect.frame').length, 1);
  big.destroy();
  const spec = JSON.parse(exampleText('long-64-tokens-8-heads.attn.json')) as { inputs: { tokens: string[] }[] };
  for (const inp of spec.inputs) inp.tokens = inp.tokens.slice(0, 32);
  const short = analyze(JSON.stringify(spec)).data!;
  const small = renderMatrix(root, short, options);
  assert.equal(small.canvases?.length ?? 0, 0);
  assert.equal(small.svg.querySelectorAll('rect.cell').length, 32 * 32);
  small.destroy();
  dom.window.close();
});

/** A spec of `n` tokens (words repeat) and `heads` heads; `hiddenRow` hides every key from that query. */
function smallSpec(n: number, heads: number, hiddenRow?: number): string {
  const words = ['the', 'cat', 'sat', 'on', 'mat'];
  const embeddings = Object.fromEntries(words.map((w, k) => [w, [k * 0.3, 1 - k * 0.1, (k % 3) * 0.5]]));
  const tokens = Array.from({ length: n }, (_, i) => words[i % words.length]);
  const mask = hiddenRow === undefined ? undefined : tokens.map((_, i) => tokens.map(() => (i === hiddenRow ? 0 : 1)));
  return JSON.stringify({
    features: ['a', 'b', 'c'], embeddings, inputs: [{ name: 'x', tokens, ...(mask ? { mask } : {}) }],
    heads: Array.from({ length: heads }, (_, h) => ({ name: `h${h}`, wq: [[1, h], [0, 1], [1, 0]], wk: [[1, 0], [h, 1], [0, 1]] })),
    scale: 'sqrt_dk', mask: 'none',
  });
}

test('the canvas takes over just above 1,024 cells in all, one head or many, and its SVG stays inside its width with no NaN', () => {
  const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true, virtualConsole: new VirtualConsole() });
  const root = dom.window.document.getElementById('r') as unknown as HTMLElement;
  const theme = makeTheme('light');
  for (const [n, heads, canvases] of [[32, 1, 0], [33, 1, 1], [1, 1, 0], [8, 16, 0], [9, 16, 16]] as const) {
    // A query that may see no key (row 0 hidden) draws hatched, never "NaN" or "undefined".
    const spec = analyze(smallSpec(n, heads, 0)).data!;
    for (const width of [300, 1200]) {
      const label = `${n} tokens × ${heads} heads at ${width} px`;
      const view = renderMatrix(root, spec, { theme, width, head: heads > 1 ? 'all' : 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true });
      assert.equal(view.canvases?.length ?? 0, canvases, label);
      assert.doesNotMatch(new dom.window.XMLSerializer().serializeToString(view.svg), /NaN|undefined/, label);
      const svgWidth = Number(view.svg.getAttribute('width'));
      for (const canvas of view.canvases ?? []) {
        assert.ok(parseFloat(canvas.style.left) + parseFloat(canvas.style.width) <= svgWidth, `${label}: a canvas past the right edge`);
      }
      for (const frame of view.svg.querySelectorAll('g.head-matrix')) {
        const ox = Number(/translate\(([-\d.]+)/.exec(frame.getAttribute('transform')!)![1]);
        const rect = frame.querySelector('rect.frame')!;
        assert.ok(ox + Number(rect.getAttribute('x')) + Number(rect.getAttribute('width')) <= svgWidth, `${label}: a frame past the right edge`);
      }
      view.destroy();
    }
  }
  dom.window.close();
});

test('the canvas\'s arrow keys stop at its edges, and Enter after Escape still picks the query last moved to', () => {
  const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true, virtualConsole: new VirtualConsole() });
  const root = dom.window.document.getElementById('r') as unknown as HTMLElement;
  const spec = analyze(smallSpec(33, 1)).data!;
  const picks: number[] = [], shown: string[][] = [];
  const tooltip = { show: (lines: string[]) => shown.push(lines), hide: () => {} };
  // A token out of range (the spec just lost tokens) starts on the first query, as clampIndex has it.
  const view = renderMatrix(root, spec, {
    theme: makeTheme('light'), width: 700, head: 0, input: 0, token: 99, matrixMode: 'weights', projection: 'wq', interactive: true,
    tooltip: tooltip as never, onPick: (c) => picks.push(c.token ?? -1),
  });
  const canvas = view.canvases![0];
  const key = (k: string) => canvas.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  key('Enter');
  for (let k = 0; k < 40; k++) { key('ArrowDown'); key('ArrowRight'); }
  assert.match(shown.at(-1)![0], /\(query 33, key 33\)/);
  key('Escape');
  key('Enter');
  for (let k = 0; k < 40; k++) { key('ArrowUp'); key('ArrowLeft'); }
  assert.match(shown.at(-1)![0], /\(query 1, key 1\)/);
  key('Escape');
  key('Enter');
  assert.deepEqual(picks, [0, 32, 0]);
  for (const lines of shown) assert.doesNotMatch(lines.join('\n'), /NaN|undefined/);
  view.destroy();
  dom.window.close();
});
