// Headings at narrow widths, from a newcomer's run in a 676 px panel: the Matrix, Init lab and
// Covariance titles were cut with "…" (or ran off the picture), and the Init lab's y-axis labels
// stood on each other. Headings now wrap onto more lines and push the picture down; the log axis
// labels every k-th decade so that no two labels crowd.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../src/core/index.js';
import { SPEC_ENTRIES } from '../../../../webview/views/registry.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { textWidth } from '../../../../webview/kit/format.js';
import type { ViewHandle } from '../../../../webview/kit/view.js';
import { exampleText } from '../../../support/specs.js';

const spec = JSON.parse(exampleText('covariance-redundant-features.attn.json'));
spec.inputs[0].name = 'six words, three of them fruit and three of them gadgets';
const data = analyze(JSON.stringify(spec), { linalg: true }).data!;

function draw(view: string, width: number, fontSize: number): { handle: ViewHandle; close: () => void } {
  const dom = new JSDOM('<!doctype html><div id="r"></div>');
  const render = SPEC_ENTRIES.find((e) => e.name === view)!.render;
  const handle = render(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
    theme: makeTheme('dark', { fontSize }), width, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: false,
  });
  return { handle, close: () => dom.window.close() };
}

/** The lines a heading is drawn in: its tspans, or the text itself. */
const lines = (el: Element) => {
  const spans = Array.from(el.querySelectorAll('tspan'));
  return spans.length ? spans.map((s) => s.textContent ?? '') : [Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('')];
};

test('the headings of Matrix, Init lab and Covariance are whole at 676 and 360 px, wrapped inside the picture, and what follows starts below them', () => {
  for (const view of ['matrix', 'init', 'covariance']) {
    for (const [width, fs] of [[676, 13], [360, 13], [676, 12]]) {
      const { handle, close } = draw(view, width, fs);
      const svg = handle.svg;
      const headings = Array.from(svg.querySelectorAll('text.title, text.heading'));
      assert.ok(headings.length >= (view === 'matrix' ? 1 : 3), `${view}: ${headings.length} headings`);
      for (const h of headings) {
        const ls = lines(h);
        const x = Number(h.getAttribute('x') ?? 0);
        const size = Number(h.getAttribute('font-size') ?? fs) * (h.getAttribute('font-weight') === '600' ? 1.1 : 1);
        // The room a heading has: the picture's width less its left edge, in the picture's coordinates.
        const ctm = h.closest('g[transform]')?.getAttribute('transform')?.match(/translate\(([-\d.]+)/);
        const left = x + (ctm ? Number(ctm[1]) : 0);
        for (const l of ls) {
          assert.doesNotMatch(l, /…$/, `${view} at ${width} px, font ${fs}: "${l}" is cut`);
          assert.ok(left + textWidth(l, size) <= width - 4, `${view} at ${width} px, font ${fs}: "${l}" runs past the edge (${left} + ${textWidth(l, size).toFixed(0)})`);
        }
      }
      // The first note (or block) under the title starts below the title's last line.
      const title = svg.querySelector('text.title')!;
      const spans = title.querySelectorAll('tspan');
      const lastY = Number(title.getAttribute('y')) + Array.from(spans).slice(1).reduce((t, s) => t + Number(s.getAttribute('dy') ?? 0), 0);
      const next = svg.querySelector('text.note');
      if (next) assert.ok(Number(next.getAttribute('y')) >= lastY + fs, `${view} at ${width}: a note at ${next.getAttribute('y')} under a title ending at ${lastY}`);
      close();
    }
  }
});

test('the Init lab\'s y-axis labels stand apart (at least 1.4 lines) and inside the picture', () => {
  for (const [width, fs] of [[676, 13], [360, 12]]) {
    const { handle, close } = draw('init', width, fs);
    const charts = Array.from(handle.svg.querySelectorAll('g.stack'));
    assert.equal(charts.length, 2);
    for (const chart of charts) {
      const ticks = Array.from(chart.querySelectorAll('text.y-tick'));
      assert.ok(ticks.length >= 2, 'the axis is labelled');
      const size = Number(ticks[0].getAttribute('font-size'));
      const ys = ticks.map((t) => Number(t.getAttribute('y'))).sort((a, b) => a - b);
      for (let i = 1; i < ys.length; i++) assert.ok(ys[i] - ys[i - 1] >= 1.4 * size, `${ticks.map((t) => t.textContent).join(', ')}: ${ys[i - 1]} and ${ys[i]} crowd`);
      for (const t of ticks) assert.ok(Number(t.getAttribute('x')) - textWidth(t.textContent!, size) >= 0, `"${t.textContent}" is cut at the left`);
      assert.ok(ticks.some((t) => t.textContent === '1'), 'variance 1, the steady line, is labelled');
    }
    close();
  }
});

test('wrapLines: at most maxLines lines, each within the width, the words in order; a long word or text is cut with "…"', async () => {
  const { wrapLines } = await import('../../../../webview/kit/format.js');
  const s = 'How the variance of W keeps a deep stack steady, and why scores are divided by √d_k';
  for (const px of [80, 200, 360, 2000]) {
    const ls = wrapLines(s, px, 13, 3);
    assert.ok(ls.length <= 3);
    for (const l of ls) assert.ok(textWidth(l, 13) <= px, `"${l}" in ${px}`);
    if (!ls.some((l) => l.endsWith('…'))) assert.equal(ls.join(' '), s);
  }
  assert.deepEqual(wrapLines('short', 200, 13), ['short']);
  assert.match(wrapLines('a'.repeat(400), 100, 13).join(''), /…$/);
});

test('an empty view\'s sentence wraps inside the picture at 430 px, the picture as tall as its lines, the text still the whole sentence', async () => {
  const { emptyView } = await import('../../../../webview/kit/view.js');
  const message = 'No "train" section in this spec: add one ({ "head", "learn", "targets", "steps", "rate" }) to watch gradient descent find the weights.';
  for (const [width, fs] of [[430, 13], [320, 13], [626, 14]]) {
    const dom = new JSDOM('<!doctype html><div id="r"></div>');
    const handle = emptyView(dom.window.document.getElementById('r') as unknown as HTMLElement, makeTheme('light', { fontSize: fs }), width, 'training', message);
    const text = handle.svg.querySelector('text.message')!;
    const ls = lines(text);
    assert.ok(ls.length >= 2, `${width} px: on ${ls.length} line(s)`);
    for (const l of ls) assert.ok(8 + textWidth(l.trimEnd(), fs) <= width - 4, `${width} px: "${l}" runs past the edge`);
    assert.equal(text.textContent, message, 'read as one sentence');
    const lastY = Number(text.getAttribute('y')) + Array.from(text.querySelectorAll('tspan')).slice(1).reduce((t, s) => t + Number(s.getAttribute('dy')), 0);
    assert.ok(Number(handle.svg.getAttribute('height')) >= lastY + fs * 0.3, `${width} px: the picture (${handle.svg.getAttribute('height')}) holds its last line at ${lastY}`);
    dom.window.close();
  }
});

test('fitText: a label that fits is written whole with no hover; a label cut with "…" carries its whole text in a <title>', async () => {
  const { fitText } = await import('../../../../webview/kit/view.js');
  const { select } = await import('d3');
  const dom = new JSDOM('<!doctype html><svg xmlns="http://www.w3.org/2000/svg"></svg>');
  const svg = select(dom.window.document.querySelector('svg') as unknown as SVGSVGElement);
  const whole = svg.append('text');
  fitText(whole, 'W_Q on is_tech', 200, 11);
  assert.equal(whole.node()!.textContent, 'W_Q on is_tech');
  assert.equal(whole.node()!.querySelector('title'), null);
  const cut = svg.append('text');
  fitText(cut, 'W_Q·W_Kᵀ on is_tech, is_fruit', 80, 11);
  const shownText = Array.from(cut.node()!.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
  assert.match(shownText, /…$/);
  assert.ok(textWidth(shownText, 11) <= 80);
  assert.equal(cut.node()!.querySelector('title')!.textContent, 'W_Q·W_Kᵀ on is_tech, is_fruit');
  dom.window.close();
});
