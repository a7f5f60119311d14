// Thinned axis labels (webview/kit/thin-labels.ts): 64 token names under the arcs stood on each
// other and ran past the panel's edge at 430–1,200 px. Every k-th keeps its label, the selected
// one always does, and no two kept labels are nearer than the room each needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelEvery, thinnedLabels } from '../../../../webview/kit/thin-labels.js';

test('every position keeps its label when each has the room it needs', () => {
  assert.deepEqual(thinnedLabels(5, 20, 18), [0, 1, 2, 3, 4]);
  assert.equal(labelEvery(20, 18), 1);
});

test('labels too close are thinned to every k-th, k the fewest that leaves each its room', () => {
  assert.equal(labelEvery(9.4, 19.5), 3);
  assert.deepEqual(thinnedLabels(10, 9.4, 19.5), [0, 3, 6, 9]);
  assert.deepEqual(thinnedLabels(0, 5, 10), []);
});

test('the selected position always keeps its label, and its neighbours give way', () => {
  const shown = thinnedLabels(20, 5, 14, [7]);
  assert.ok(shown.includes(7));
  for (let a = 1; a < shown.length; a++) assert.ok(shown[a] - shown[a - 1] >= 3, `${shown[a - 1]} and ${shown[a]} are 3 apart or more`);
  assert.deepEqual(thinnedLabels(20, 5, 14, [-1, 99, 1.5]), thinnedLabels(20, 5, 14), 'positions not on the axis are ignored');
});
