// The label placer (webview/kit/label-placer.ts): a label takes the first free spot around its
// point. The widths test found "apple′" placed past the quadrant plot's right edge at 430 px (the
// only free spot was outside the picture); with bounds, a spot outside them is never taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelPlacer } from '../../../../webview/kit/label-placer.js';

test('a label takes the first free spot, and a taken box is not given twice', () => {
  const p = new LabelPlacer();
  assert.deepEqual(p.place([[10, 20], [10, 40]], 30, 10), [10, 20]);
  assert.deepEqual(p.place([[10, 20], [10, 40]], 30, 10), [10, 40]);
  assert.equal(p.place([[10, 20], [10, 40]], 30, 10), undefined);
});

test('with bounds, a spot whose box leaves them is skipped for the next one inside', () => {
  const p = new LabelPlacer({ x: 0, y: 0, w: 100, h: 100 });
  // At x 80 a 30 px label would end at 110, past the right edge: the spot to the left is taken instead.
  assert.deepEqual(p.place([[80, 50], [40, 50]], 30, 10), [40, 50]);
  // Above the top (its box starts 8 px above its baseline) and below the bottom: no spot at all.
  assert.equal(p.place([[10, 5], [10, 105]], 30, 10), undefined);
  // Without bounds the same spot is fine.
  assert.deepEqual(new LabelPlacer().place([[80, 50]], 30, 10), [80, 50]);
});
