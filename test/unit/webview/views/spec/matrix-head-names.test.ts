// Heads side by side or as small multiples name every head readably: 64 tokens × 8 heads at 430
// and 700 px cut six of eight names to 'head "he…'. A name now reads 'head "x"', else "x" alone,
// else "x" wrapped on up to three lines; the same form for every head, the matrices kept in line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM, VirtualConsole } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { renderMatrix } from '../../../../../webview/views/spec/matrix.js';
import { exampleText } from '../../../../support/specs.js';
import { between, seeded } from '../../../../support/random.js';

const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true, virtualConsole: new VirtualConsole() });
const root = dom.window.document.getElementById('r') as unknown as HTMLElement;
const theme = makeTheme('light');

/** Each head's name as drawn: its lines (tspans, or the text itself) and the hover. */
function names(svg: SVGSVGElement) {
  return Array.from(svg.querySelectorAll('g.head-matrix'), (g) => {
    const t = g.querySelector('text.head-name')!;
    const spans = Array.from(t.querySelectorAll('tspan'), (s) => s.textContent!);
    const own = Array.from(t.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
    return { head: Number(g.getAttribute('data-head')), lines: spans.length ? spans : [own], hover: t.querySelector('title')?.textContent, y: /translate\([^,]+,([^)]+)\)/.exec(g.getAttribute('transform')!)![1] };
  });
}

function draw(data: ReturnType<typeof analyze>['data'], width: number, interactive: boolean) {
  return renderMatrix(root, data!, { theme, width, head: 'all', input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive });
}

test('64 tokens × 8 heads at 430, 626, 700 and 1,200 px: every head named whole, in one form, its whole name in the hover when shortened', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  for (const width of [430, 626, 700, 1200]) {
    for (const interactive of [true, false]) {
      const view = draw(data, width, interactive);
      const shown = names(view.svg);
      assert.equal(shown.length, 8);
      for (const s of shown) {
        const name = data.inputs[0].heads[s.head].name;
        const text = s.lines.join(' ');
        assert.ok(!text.includes('…'), `${width} px: "${text}" is cut`);
        assert.ok(text === `head "${name}"` || text === name, `${width} px: "${text}" for head "${name}"`);
        if (text !== `head "${name}"`) assert.equal(s.hover, `head "${name}"`);
      }
      const forms = new Set(shown.map((s) => s.lines.join(' ').startsWith('head "')));
      assert.equal(forms.size, 1, `${width} px: one form for every head`);
      view.destroy();
    }
  }
});

/** A spec of `heads` heads over `n` tokens, each head named by `name(h)`. */
function spec(n: number, heads: number, name: (h: number) => string): string {
  const tokens = Array.from({ length: n }, (_, i) => `t${i}`);
  return JSON.stringify({
    features: ['a', 'b'], embeddings: Object.fromEntries(tokens.map((t, i) => [t, [Math.sin(i), Math.cos(i)]])),
    inputs: [{ name: 'x', tokens }],
    heads: Array.from({ length: heads }, (_, h) => ({ name: name(h), wq: [[1, 0], [0, 1]], wk: [[1, h / heads], [0, 1]], wv: 'identity' })),
  });
}

test('names of words that fit a line are shown whole on up to three lines at any width, the matrices in line below them', () => {
  const rand = seeded(0x4ead);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = () => Array.from({ length: between(rand, 1, 7) }, () => letters[between(rand, 0, 25)]).join('');
  for (let k = 0; k < 40; k++) {
    const heads = between(rand, 2, 8);
    const n = between(rand, 3, 64);
    const width = between(rand, 380, 1300);
    const given = Array.from({ length: heads }, () => Array.from({ length: between(rand, 1, 3) }, word).join(' '));
    const data = analyze(spec(n, heads, (h) => `${given[h]} ${h}`)).data!;
    const view = draw(data, width, true);
    const where = `case ${k}: ${heads} heads × ${n} tokens at ${width} px`;
    const shown = names(view.svg);
    const rows = new Map<string, number[]>();
    for (const s of shown) {
      const name = data.inputs[0].heads[s.head].name;
      const text = s.lines.join(' ');
      assert.ok(s.lines.length <= 3, where);
      assert.ok(text === name || text === `head "${name}"`, `${where}: "${text}" for "${name}"`);
      for (const line of s.lines) assert.ok(textWidth(line, theme.fontSize * 1.1) <= Number(view.svg.getAttribute('width')), where);
      rows.set(s.y, [...(rows.get(s.y) ?? []), s.lines.length]);
    }
    // Heads in one row start their matrices at one height: the frames of a row share their y.
    for (const g of [...rows.keys()]) {
      const frames = Array.from(view.svg.querySelectorAll(`g.head-matrix[transform$=",${g})"] rect.frame`), (r) => r.getAttribute('y'));
      assert.equal(new Set(frames).size, 1, where);
    }
    view.destroy();
  }
});
