// The spec views' budgets from the data's shapes (src/core/result/view-budget.ts): the compare view
// counts only the inputs that hold the word, the longest of them, and every feature.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareOverBudget } from '../../../../src/core/result/view-budget.js';
import { COMPARE, compareElements } from '../../../../src/core/budget.js';
import { analyzeOk } from '../../../support/specs.js';

/** `inputs` inputs at d_model `d`; the first holds "cat", the others "dog" only. */
function data(d: number, inputs: number) {
  const thin = (seed: number) => ({ init: 'xavier', shape: [d, 1], seed });
  return analyzeOk({
    embeddings: { cat: new Array(d).fill(1), dog: new Array(d).fill(-1) },
    inputs: Array.from({ length: inputs }, (_, i) => ({ name: `in${i}`, tokens: i === 0 ? ['cat', 'dog'] : ['dog', 'dog', 'dog'] })),
    heads: [{ name: 'h', wq: thin(1), wk: thin(2), wv: thin(3) }],
  }).data;
}

test('compare: the panels are the inputs holding the word, so a rare word fits where a common one does not', () => {
  const d = 100, inputs = 60;
  const wide = data(d, inputs);
  assert.ok(compareElements(1, 2, d) <= COMPARE.max);
  assert.equal(compareOverBudget(wide, 0, 0), undefined, '"cat" is in one input');
  assert.ok(compareElements(inputs, 3, d) > COMPARE.max);
  assert.equal(compareOverBudget(wide, 0, 1), `the compare view of ${inputs} input(s) × ${d} feature(s) needs ${compareElements(inputs, 3, d).toLocaleString('en-US')} SVG elements, over the budget of 24,000: draw --view quadrant or matrix instead, or compare fewer inputs or features in a smaller spec`);
  assert.equal(compareOverBudget(wide, 0, 9), undefined, 'no such token: nothing to draw, nothing to refuse');
});
