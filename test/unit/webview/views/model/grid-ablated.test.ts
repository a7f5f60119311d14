// The grid of a model run with heads switched off: exactly the ablated heads are hatched, labelled
// "ablated" and say so in their hover and to a screen reader; the note says the attention is the
// ablated run's; restored, the grid is drawn as it was. The norms' grid says what its thumbnails are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const data = scanModel(memoryAttention(randomAttention(3, 4, 6), 3, 4, 6));

test('an ablated head\'s thumbnail is hatched and labelled; the others are not', () => {
  const { svg } = drawModel('model', data, { ablated: [{ layer: 1, head: 2 }, { layer: 2, head: 0 }] });
  const marked = [...svg.querySelectorAll('g.head-cell[data-ablated="true"]')].map((g) => `${g.getAttribute('data-layer')}.${g.getAttribute('data-head')}`);
  assert.deepEqual(marked, ['1.2', '2.0']);
  for (const g of svg.querySelectorAll('g.head-cell[data-ablated="true"]')) {
    assert.equal(g.querySelector('rect.ablated')!.getAttribute('fill'), 'url(#al-ablated-hatch)');
    assert.equal(g.querySelector('text.ablated-label')!.textContent, 'ablated');
    assert.match(g.getAttribute('aria-label')!, /, ablated$/);
  }
  assert.equal(svg.querySelectorAll('rect.ablated').length, 2);
  assert.ok(svg.querySelector('pattern#al-ablated-hatch'), 'the hatch is defined once');
  assert.match(svg.querySelector('g.head-cell[data-layer="1"][data-head="2"] title')!.textContent!, /^layer 2 head 3 \(ablated\)\n/);
  assert.match(svg.querySelector('g.head-cell[data-layer="0"][data-head="0"] title')!.textContent!, /^layer 1 head 1\n[^]*\na or a right click: ablate this head$/);
  assert.match(svg.querySelector('g.head-cell[data-layer="1"][data-head="2"] title')!.textContent!, /\na or a right click: restore this head$/);
  assert.match(svg.querySelector('text.note')!.textContent!, /2 head\(s\) ablated \(hatched\): the attention is the ablated run's/);
});

test('ablated then restored, the grid is drawn as before; a file\'s grid offers no ablation', () => {
  const markup = (ablated?: { layer: number; head: number }[]) => {
    const { dom, svg } = drawModel('model', data, ablated ? { ablated } : {});
    return new dom.window.XMLSerializer().serializeToString(svg);
  };
  const before = markup([]);
  assert.notEqual(markup([{ layer: 0, head: 3 }]), before);
  assert.equal(markup([]), before);
  assert.match(before, /Enter opens the head, a ablates or restores it/);
  assert.ok(!markup().includes('ablat'), 'a file has no heads to switch off');
});

test('the norms\' grid says its thumbnails are value-weighted norms, each on its own scale', () => {
  const { svg } = drawModel('model', { ...data, header: { ...data.header, norms: true } });
  assert.match(svg.querySelector('text.note')!.textContent!, /one head's value-weighted norms ‖α v W_O‖ max-pooled to 6×6 and scaled to its own strongest norm/);
  assert.match(svg.querySelector('text.note')!.textContent!, /frame: no statistic \(the entropy of norms is not the weights'/);
  const frames = new Set([...svg.querySelectorAll('rect.frame')].map((r) => r.getAttribute('stroke')));
  assert.equal(frames.size, 1, 'every frame one neutral colour');
  assert.match(svg.querySelector('g.head-cell title')!.textContent!, /^layer 1 head 1\nvalue-weighted norms: the head view writes α × ‖v W_O‖ for each cell$/);
  const sorted = drawModel('model', { ...data, header: { ...data.header, norms: true } }, { sort: true }).svg;
  assert.deepEqual([...sorted.querySelectorAll('g.head-cell')].slice(0, 4).map((g) => g.getAttribute('data-head')), ['0', '1', '2', '3'], 'not sorted by a statistic of norms');
  const ablated = drawModel('model', { ...data, header: { ...data.header, norms: true } }, { ablated: [{ layer: 0, head: 0 }] }).svg;
  assert.match(ablated.querySelector('text.note')!.textContent!, /1 head\(s\) ablated \(hatched\): the norms are the run's own, without the ablation/);
});

test('in a 430 px panel the ablated grid\'s note still says what the frame\'s colours are', () => {
  const { svg } = drawModel('model', data, { width: 320, ablated: [{ layer: 1, head: 0 }] });
  const note = svg.querySelector('text.note')!;
  assert.equal(note.querySelector('title'), null, 'no hover: nothing was cut');
  assert.match(note.textContent!, /frame: entropy from .* \(blue\) to .* \(red\)$/);
});
