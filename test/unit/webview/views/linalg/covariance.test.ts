// Covariance heat maps, from a newcomer's run in a 676 px panel: the rows and columns carried no
// names, so a reader could not tell which feature was which without hovering every cell. Each row
// and column is now labelled with the spec's feature name (truncated, the full name in its hover).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { exampleText } from '../../../../support/specs.js';
import { shareLabel } from '../../../../../webview/views/linalg/covariance.js';

const shown = (el: Element) => Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
const draw = (text: string) => new JSDOM(renderSvg(analyze(text, { linalg: true }).data!, 'covariance', { head: 0, width: 676 }), { contentType: 'image/svg+xml' }).window.document;

test('the heat map of X names its rows and columns with the spec\'s features, in order; Q\'s with its axes', () => {
  const doc = draw(exampleText('covariance-redundant-features.attn.json'));
  const [x, q] = Array.from(doc.querySelectorAll('g.feature-space'));
  for (const axis of ['row', 'col']) {
    assert.deepEqual(Array.from(x.querySelectorAll(`text.axis-label.${axis}`), shown), ['is_fruit', 'is_sweet', 'is_tech', 'length'], `X ${axis}s`);
    assert.deepEqual(Array.from(q.querySelectorAll(`text.axis-label.${axis}`), shown), ['q0', 'q1'], `Q ${axis}s`);
  }
});

test('a long feature name is truncated on the axis, its full name in the hover, and no label runs into the cells', () => {
  const long = 'how_strongly_the_word_is_about_technology';
  const spec = JSON.parse(exampleText('covariance-redundant-features.attn.json'));
  spec.features[2] = long;
  const doc = draw(JSON.stringify(spec));
  const x = doc.querySelector('g.feature-space')!;
  const heat = x.querySelector('g.correlation')!;
  const [hx, hy] = (heat.getAttribute('transform') ?? '').match(/-?[\d.]+/g)!.map(Number);
  for (const axis of ['row', 'col']) {
    const label = x.querySelectorAll(`text.axis-label.${axis}`)[2];
    assert.match(shown(label), /…$/, `${axis}: truncated`);
    assert.ok(shown(label).length < long.length);
    assert.equal(label.querySelector('title')?.textContent?.split('\n')[0], long, `${axis}: the full name in the hover`);
  }
  // Row labels end left of the cells; column labels start above them.
  for (const label of Array.from(x.querySelectorAll('text.axis-label.row'))) {
    const right = Number(label.getAttribute('x'));
    assert.equal(label.getAttribute('text-anchor'), 'end');
    assert.ok(right <= hx - 2, `row label ends at ${right}, the cells start at ${hx}`);
    assert.ok(right - textWidth(shown(label), 10) >= -1, 'row label inside the picture');
  }
  for (const label of Array.from(x.querySelectorAll('text.axis-label.col'))) assert.ok(Number(label.getAttribute('y')) <= hy - 2);
});

/** Where an element's origin sits in the picture: its ancestors' translations added up. */
function origin(el: Element): [number, number] {
  let x = 0, y = 0;
  for (let e: Element | null = el.parentElement; e; e = e.parentElement) {
    const m = e.getAttribute('transform')?.match(/translate\(([-\d.]+),\s*([-\d.]+)\)/);
    if (m) { x += Number(m[1]); y += Number(m[2]); }
  }
  return [x, y];
}
const drawAt = (text: string, width: number) =>
  new JSDOM(renderSvg(analyze(text, { linalg: true }).data!, 'covariance', { head: 0, width }), { contentType: 'image/svg+xml' }).window.document;

test('the variance bars stand beside the heat map only with room (at 430 px they had 26 px and read "variance ex…"), else under it; their label is whole and inside the picture', () => {
  const label = 'variance explained by each principal direction';
  for (const example of ['covariance-redundant-features.attn.json', 'apple-watch-geometry.attn.json', 'long-64-tokens-8-heads.attn.json']) {
    for (const width of [406, 430, 626, 1200]) {
      const doc = drawAt(exampleText(example), width);
      for (const space of Array.from(doc.querySelectorAll('g.feature-space'))) {
        const text = space.querySelector('text.explained-label')!;
        const lines = Array.from(text.querySelectorAll('tspan'), (t) => t.textContent!);
        assert.equal(lines.join(' '), label, `${example} at ${width} px: the label is whole`);
        const [x, y] = origin(text);
        const size = Number(text.getAttribute('font-size'));
        for (const l of lines) assert.ok(x + textWidth(l, size) <= width - 4, `${example} at ${width} px: "${l}" ends at ${(x + textWidth(l, size)).toFixed(0)}`);
        const heat = space.querySelector('g.correlation');
        if (!heat) continue;
        const [hx, hy] = origin(heat.querySelector('rect')!);
        const side = Number(heat.querySelector(':scope > rect:last-of-type')!.getAttribute('width'));
        // Beside the heat map (right of it) or under it (below its legend): never on it.
        assert.ok(x >= hx + side || y - size >= hy + side + 14, `${example} at ${width} px: the label at (${x}, ${y}) lies on the heat map (${hx}, ${hy}, ${side})`);
        for (const bar of Array.from(space.querySelectorAll('rect.component'))) {
          const [bx] = origin(bar);
          assert.ok(bx + Number(bar.getAttribute('x')) + Number(bar.getAttribute('width')) <= width, `${example} at ${width} px: a bar leaves the picture`);
        }
      }
    }
  }
});

test('with too many features for a heat map (init-four-rules, 128) the sentence wraps inside the picture and the variance bars start under it (they overlapped it)', () => {
  for (const width of [406, 430, 626, 1200]) {
    const doc = drawAt(exampleText('init-four-rules.attn.json'), width);
    const sentences = Array.from(doc.querySelectorAll('text.too-many'));
    assert.ok(sentences.length >= 1, `${width} px: the sentence is there`);
    for (const s of sentences) {
      const [x, y] = origin(s);
      const spans = Array.from(s.querySelectorAll('tspan'));
      assert.match(spans.map((t) => t.textContent).join(' '), /^128 features: too many to draw each pair; the redundant pairs and the variance explained follow$/);
      const size = Number(s.getAttribute('font-size'));
      for (const t of spans) assert.ok(x + textWidth(t.textContent!, size) <= width - 4, `${width} px: "${t.textContent}" fits`);
      const lastBaseline = y + Number(s.getAttribute('y')) + spans.slice(1).reduce((a, t) => a + Number(t.getAttribute('dy')), 0);
      const label = s.parentElement!.querySelector('text.explained-label')!;
      const [, ly] = origin(label);
      assert.ok(ly + Number(label.getAttribute('y')) - size >= lastBaseline + 3, `${width} px: the bars' label (baseline ${ly + 10}) runs into the sentence (last baseline ${lastBaseline})`);
    }
  }
});

test('each variance bar\'s share says it is a percentage ("78 22 1 0" read as counts): its hover\'s share, rounded, with "%"', () => {
  for (const example of ['covariance-redundant-features.attn.json', 'apple-watch-geometry.attn.json', 'long-64-tokens-8-heads.attn.json']) {
    for (const width of [430, 700, 1200]) {
      const doc = drawAt(exampleText(example), width);
      for (const space of Array.from(doc.querySelectorAll('g.feature-space'))) {
        const bars = Array.from(space.querySelectorAll('rect.component'));
        const labels = Array.from(space.querySelectorAll('text.share'));
        assert.ok(labels.length >= 1, `${example} at ${width} px: the first bar has its share`);
        let lastRight = -Infinity;
        for (const t of labels) {
          const x = Number(t.getAttribute('x'));
          const bar = bars.find((b) => Math.abs(Number(b.getAttribute('x')) + Number(b.getAttribute('width')) / 2 - x) < 0.01)!;
          const pct = Number(/^PC\d+: ([\d.e-]+)% of the variance/.exec(bar.querySelector('title')!.textContent!)![1]);
          assert.match(shown(t), /^(<1|>99|\d{1,3})%$/, `${example} at ${width} px`);
          // The hover has one decimal: the label is that share rounded, give or take the decimal's own rounding.
          if (/^\d/.test(shown(t))) assert.ok(Math.abs(parseInt(shown(t), 10) - pct) <= 0.55, `${example} at ${width} px: "${shown(t)}" for ${pct}%`);
          const half = textWidth(shown(t), Number(t.getAttribute('font-size'))) / 2;
          assert.ok(x - half >= lastRight, `${example} at ${width} px: "${shown(t)}" runs into its neighbour`);
          lastRight = x + half;
        }
      }
    }
  }
});

test('a share that rounds to 0 % or 100 % without being it reads "<1%" or ">99%"; 0 and 1 are "0%" and "100%"', () => {
  assert.deepEqual([0, 1e-9, 0.004, 0.005, 0.78, 0.994, 0.996, 1, NaN].map(shareLabel), ['0%', '<1%', '<1%', '1%', '78%', '99%', '>99%', '100%', '?']);
});
