// The head view's arcs past ARCS_MAX tokens: the k strongest links of the queries in view (their last
// ARCS_MAX) among the keys in view, the very links the weights give, drawn again as the view moves,
// and a line saying which queries and keys they are; a head that came as a picture says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headFloat32, scanModel } from '../../../../../src/core/model-attention/scan.js';
import { ARCS_MAX } from '../../../../../webview/views/model/head.js';
import { linksInView } from '../../../../../webview/views/model/map/arcs.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const n = 200;
const a = memoryAttention(randomAttention(1, 1, n, 3), 1, 1, n);
const weights = headFloat32(a, 0, 0);
const data = { ...scanModel(a), head: { layer: 0, head: 0, weights } };

/** The k largest weights of query i among keys j0…j1, largest first. */
function strongest(i: number, j0: number, j1: number, k: number): number[] {
  return Array.from(weights.subarray(i * n + j0, i * n + j1 + 1)).sort((x, y) => y - x).slice(0, k);
}

test('past ARCS_MAX tokens the arcs are the k strongest links of the last ARCS_MAX queries in view, and say so', () => {
  const { svg, handle } = drawModel('head', data, { width: 900, k: 2 });
  const arcs = [...svg.querySelectorAll('g.arc-window path.arc')];
  assert.equal(arcs.length, ARCS_MAX * 2);
  const queries = new Set(arcs.map((p) => Number(p.getAttribute('data-i'))));
  assert.deepEqual([...queries].sort((x, y) => x - y), Array.from({ length: ARCS_MAX }, (_, k) => n - ARCS_MAX + k));
  for (const i of [n - ARCS_MAX, 150, n - 1]) {
    const drawn = arcs.filter((p) => Number(p.getAttribute('data-i')) === i).map((p) => weights[i * n + Number(p.getAttribute('data-j'))]).sort((x, y) => y - x);
    assert.deepEqual(drawn, strongest(i, 0, n - 1, 2), `query ${i}'s two strongest links`);
  }
  assert.ok(handle.notes.includes(`arcs: the 2 strongest links of queries ${n - ARCS_MAX + 1}–${n} (the last ${ARCS_MAX} of the ${n} in view) among keys 1–${n} (${ARCS_MAX * 2} drawn; zoom or pan for others)`), handle.notes.join(' | '));
  assert.match(svg.querySelector('g.arc-note')!.textContent!, /^arcs: the 2 strongest links of queries 105–200/);
});

test('a zoom draws the arcs of the queries in view among the keys in view', () => {
  const { svg, dom, handle } = drawModel('head', data, { width: 626, interactive: true, k: 1 });
  const frame = svg.querySelector('g.head-picture')!;
  for (let k = 0; k < 6; k++) frame.dispatchEvent(new dom.window.WheelEvent('wheel', { deltaY: -300, clientX: 0, clientY: 0, bubbles: true, cancelable: true }));
  const m = /^shown: queries (\d+)–(\d+) × keys (\d+)–(\d+)/.exec(svg.querySelector('text.zoom-range')!.textContent!)!;
  const [i0, i1, j0, j1] = m.slice(1).map((x) => Number(x) - 1);
  const arcs = [...svg.querySelectorAll('g.arc-window path.arc')];
  assert.equal(arcs.length, i1 - i0 + 1, 'one link for each query in view');
  for (const p of arcs) {
    const i = Number(p.getAttribute('data-i')), j = Number(p.getAttribute('data-j'));
    assert.ok(i >= i0 && i <= i1 && j >= j0 && j <= j1, `link ${i} → ${j} in view`);
    assert.equal(weights[i * n + j], strongest(i, j0, j1, 1)[0]);
  }
  assert.ok(handle.notes.some((x) => x.startsWith(`arcs: the 1 strongest links of queries ${i0 + 1}–${i1 + 1} among keys ${j0 + 1}–${j1 + 1}`)), handle.notes.join(' | '));
});

test('linksInView leaves out cells not read and nothing-weights', () => {
  const win = linksInView((i, j) => (j === 3 ? undefined : j === 2 ? 0 : i + j), 0, 1, 0, 5, 2);
  assert.deepEqual(win.links.map(([i, j, w]) => `${i}:${j}:${w}`).sort(), ['0:4:4', '0:5:5', '1:4:5', '1:5:6']);
  assert.deepEqual([win.q0, win.q1, win.j0, win.j1], [0, 1, 0, 5]);
});
