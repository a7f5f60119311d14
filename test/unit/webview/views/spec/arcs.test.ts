// The arcs' reading key is whole at every width: it wraps instead of ending in "…", and the loops
// that stand for a token attending to itself are explained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { exampleText } from '../../../../support/specs.js';
import { textWidth } from '../../../../../webview/kit/format.js';

for (const width of [700, 1000, 1400]) {
  test(`arcs at ${width} px: the title and the reading key are not cut, and loops are explained`, () => {
    const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
    const doc = new JSDOM(renderSvg(data, 'arcs', { width, head: 'all' }), { contentType: 'image/svg+xml' }).window.document;
    const title = doc.querySelector('text.title')!.textContent!;
    assert.doesNotMatch(title, /…/);
    const reading = Array.from(doc.querySelectorAll('g.reading text'), (t) => t.textContent);
    assert.deepEqual(reading, ['arc width = weight', 'above: to a later token', 'below: to an earlier token', 'loop over a token: to itself']);
    const svgWidth = Number(doc.documentElement.getAttribute('width'));
    for (const t of Array.from(doc.querySelectorAll('g.reading text'))) {
      assert.ok(Number(t.getAttribute('x')) + 12 + (t.textContent!.length * 6) <= svgWidth, `"${t.textContent}" fits`);
    }
  });
}

// Two heads' arcs between the same two tokens were drawn on one path, and their
// translucent strokes blended into colours the legend does not have. Each head now has its own lane.
test('arcs of two heads on the same pair take separate lanes, never one path', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const doc = new JSDOM(renderSvg(data, 'arcs', { width: 900, head: 'all' }), { contentType: 'image/svg+xml' }).window.document;
  const arcs = Array.from(doc.querySelectorAll('path.arc'));
  const byPair = new Map<string, Element[]>();
  for (const a of arcs) {
    const key = `${a.getAttribute('data-query')},${a.getAttribute('data-key')}`;
    byPair.set(key, [...(byPair.get(key) ?? []), a]);
  }
  const shared = [...byPair.values()].filter((list) => new Set(list.map((a) => a.getAttribute('data-head'))).size > 1);
  assert.ok(shared.length > 0, 'the example has pairs both heads link');
  // The bend of an arc: the y of its control points (a loop: its radius).
  const bend = (a: Element) => {
    const d = a.getAttribute('d')!;
    const nums = d.match(/-?\d+(\.\d+)?/g)!.map(Number);
    return d.includes(' a ') ? nums[2] : nums[3];
  };
  for (const list of shared) {
    assert.equal(new Set(list.map((a) => a.getAttribute('d'))).size, list.length, 'no two heads on one path');
    for (let p = 0; p < list.length; p++) {
      for (let q = p + 1; q < list.length; q++) {
        const apart = Math.abs(bend(list[p]) - bend(list[q]));
        const widths = (Number(list[p].getAttribute('stroke-width')) + Number(list[q].getAttribute('stroke-width'))) / 2;
        assert.ok(apart >= Math.min(widths, 2), `pair ${list[p].getAttribute('data-query')}→${list[p].getAttribute('data-key')}: bends ${apart.toFixed(1)} px apart, strokes ${widths.toFixed(1)} px`);
      }
    }
  }
});

// The widths test (test/e2e/widths.e2e.test.ts) found long-64-tokens-8-heads' arcs 896 px wide in a
// 626 px panel (its last token labels past the edge) and its slanted labels 4 px on each other at
// 1,200 px. The tokens now share the panel's width; upright labels are thinned to those with room.
for (const width of [430, 626, 1200]) {
  test(`arcs of 64 tokens at ${width} px: the picture fits, no two token labels crowd, the selected token is named`, () => {
    const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
    const doc = new JSDOM(renderSvg(data, 'arcs', { width, head: 'all', token: 5 }), { contentType: 'image/svg+xml' }).window.document;
    assert.ok(Number(doc.documentElement.getAttribute('width')) <= width, 'no wider than the panel');
    const labels = Array.from(doc.querySelectorAll('g.token text'));
    const xs = labels.map((t) => Number(t.getAttribute('x')));
    const fontSize = Number(doc.documentElement.getAttribute('font-size'));
    for (let a = 1; a < xs.length; a++) assert.ok(xs[a] - xs[a - 1] >= fontSize * 1.5 - 0.01, `labels at ${xs[a - 1]} and ${xs[a]} have room`);
    assert.ok(labels.some((t) => t.closest('g.token')!.getAttribute('data-token') === '5'), 'the selected token keeps its label');
    assert.equal(doc.querySelectorAll('g.token').length, 64, 'every token keeps its hover');
  });
}

// Seen in code-server: a 326 px panel cut 'all heads (click or press Enter on one to hide it)' at its
// edge (13 px text). The label fits the picture at every width; cut, it ends in "…" and its hover says what it does.
test('arcs in a narrow panel: the legend\'s "all heads" label stays within the picture', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  for (const width of [260, 300, 340, 420, 700]) {
    const doc = new JSDOM(renderSvg(data, 'arcs', { width, head: 'all' }), { contentType: 'image/svg+xml' }).window.document;
    const svgWidth = Number(doc.documentElement.getAttribute('width'));
    const legend = /translate\(([\d.]+),/.exec(doc.querySelector('g.legend')!.getAttribute('transform')!)!;
    const item = doc.querySelector('g.head-toggle[data-head="all"]')!;
    const x = Number(legend[1]) + Number(/translate\(([\d.]+),/.exec(item.getAttribute('transform')!)![1]) + 4;
    const label = item.querySelector('text')!.textContent!;
    assert.ok(x + textWidth(label, 12) <= svgWidth, `${width} px: "${label}" ends at ${(x + textWidth(label, 12)).toFixed(1)} in ${svgWidth}`);
    assert.match(label, /^all heads/);
    if (label.endsWith('…')) assert.match(item.querySelector('title')?.textContent ?? '', /click or press Enter/);
    else assert.equal(label, 'all heads (click or press Enter on one to hide it)');
  }
});

// Seen in code-server: in a 326 px panel the rings of the first token (a causal spec's first token
// attends only to itself, in each of the 8 heads: one lane a head, up to 24 px wide) ran past the left edge.
test('arcs: a token\'s rings over itself stay within the picture, the first and the last token\'s too', () => {
  for (const file of ['long-64-tokens-8-heads.attn.json', 'multi-head-causal.attn.json']) {
    const data = analyze(exampleText(file)).data!;
    for (const width of [300, 420, 700, 1000]) {
      const doc = new JSDOM(renderSvg(data, 'arcs', { width, head: 'all' }), { contentType: 'image/svg+xml' }).window.document;
      const svgWidth = Number(doc.documentElement.getAttribute('width'));
      const rings = Array.from(doc.querySelectorAll('path.arc')).filter((p) => p.getAttribute('data-query') === p.getAttribute('data-key'));
      assert.ok(rings.length > 0, `${file}: rings to draw`);
      for (const ring of rings) {
        const [x, r] = /^M ([-\d.e]+) [-\d.e]+ a ([\d.e]+)/.exec(ring.getAttribute('d')!)!.slice(1).map(Number);
        const half = Number(ring.getAttribute('stroke-width')) / 2;
        const centre = x + 0.6 * r;
        assert.ok(centre - r - half >= 0 && centre + r + half <= svgWidth,
          `${file} at ${width} px: token ${ring.getAttribute('data-query')}'s ring spans ${(centre - r - half).toFixed(1)} to ${(centre + r + half).toFixed(1)} in ${svgWidth}`);
      }
    }
  }
});

test('2,048 tokens: the arcs draw 256 around the selected token, say so in one line, and a click on a token moves them', async () => {
  const { longSpecData, drawSpecView } = await import('../../../../support/long-spec.js');
  const { renderArcs } = await import('../../../../../webview/views/spec/arcs.js');
  const data = longSpecData();
  for (const interactive of [false, true]) {
    for (const [token, first] of [[2047, 1792], [1000, 872], [0, 0]]) {
      const { svg, handle, elements, ms, picks, dom } = drawSpecView(renderArcs, data, { token, interactive });
      const said = `2,048 tokens, more than the 256 drawn at once: showing tokens ${(first + 1).toLocaleString('en-US')}–${(first + 256).toLocaleString('en-US')} of 2,048 around the selected token; click a token near either end to move them`;
      assert.equal(handle.notes[0], said);
      const drawn = Array.from(svg.querySelectorAll('text.note'), (t) => t.querySelector('title')?.textContent ?? t.textContent);
      assert.ok(drawn.includes(said), 'written on the picture');
      const tokens = Array.from(svg.querySelectorAll('g.token'), (g) => Number(g.getAttribute('data-token')));
      assert.deepEqual([tokens.length, tokens[0], tokens.at(-1)], [256, first, first + 255]);
      const arcs = Array.from(svg.querySelectorAll('path.arc'));
      assert.ok(arcs.length > 0 && arcs.length <= 3 * 256, `${arcs.length} arcs`);
      assert.ok(arcs.every((a) => ['data-query', 'data-key'].every((k) => Number(a.getAttribute(k)) >= first && Number(a.getAttribute(k)) < first + 256)));
      assert.ok(elements < 3000, `${elements} elements`);
      // The weight the window leaves out of the selected token's row is said, with where most of it went.
      const away = handle.notes.find((t) => / on tokens outside them, /.test(t));
      if (token === 1000) assert.match(away ?? '', /^"w0" \(token 1001\) puts 0\.\d{3} of its weight on tokens outside them, most on "w0" \(token 1, 0\.\d+\)$/);
      if (token === 0) assert.equal(away, undefined, 'token 1 sees no key outside 1–256');
      assert.ok(ms < 20_000, 'a hang guard, not a benchmark');
      if (interactive) {
        const edge = svg.querySelector(`g.token[data-token="${first}"]`)!;
        edge.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
        assert.deepEqual(picks, [{ token: first }]);
      }
      dom.window.close();
    }
  }
});

test('within 256 tokens the arcs draw every token and say nothing of a window', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  const doc = new JSDOM(renderSvg(data, 'arcs', { width: 900, head: 0 }), { contentType: 'image/svg+xml' }).window.document;
  assert.equal(doc.querySelectorAll('g.token').length, 64);
  assert.doesNotMatch(doc.documentElement.textContent!, /drawn at once/);
});
