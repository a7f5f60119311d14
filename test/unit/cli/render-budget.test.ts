// The views' budgets in `attn render`: a view whose SVG grows with the inputs times the features is
// refused from its shapes, in one line and before jsdom builds anything; the examples all draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewOverBudget } from '../../../src/cli/render.js';
import { COMPARE, compareElements } from '../../../src/core/budget.js';
import { VIEW_NAMES } from '../../../src/core/vocabulary.js';
import { analyzeOk, exampleFiles } from '../../support/specs.js';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { analyze } from '../../../src/core/index.js';
import { folderFiles } from '../../../src/core/files/spec-files.js';
import { attn, tempSpec } from '../../support/cli.js';

/** A spec of `inputs` inputs of "cat dog" at d_model `features`, with one head of width 1 (thin heads keep the reader's limits far away). */
export function wideSpec(features: number, inputs: number): string {
  const thin = (seed: number) => ({ init: 'xavier', shape: [features, 1], seed });
  return JSON.stringify({
    features: Array.from({ length: features }, (_, i) => `f${i}`),
    embeddings: { cat: Array.from({ length: features }, (_, i) => (i % 5) - 2), dog: Array.from({ length: features }, (_, i) => (i % 3) - 1) },
    inputs: Array.from({ length: inputs }, (_, i) => ({ name: `in${i}`, tokens: ['cat', 'dog'] })),
    heads: [{ name: 'h', wq: thin(1), wk: thin(2), wv: thin(3) }],
  });
}

test('every example draws every view within the budgets', () => {
  for (const file of exampleFiles()) {
    const a = analyze(readFileSync(file, 'utf8'), { files: folderFiles(dirname(file)) });
    assert.ok(a.data, file);
    for (const view of VIEW_NAMES) assert.equal(viewOverBudget(a.data, view), undefined, `${file} ${view}`);
  }
});

test('compare counts the panels of the inputs holding the word, their tokens and the features', () => {
  const a = analyzeOk(JSON.parse(wideSpec(600, 256)));
  const why = viewOverBudget(a.data, 'compare');
  assert.match(why ?? '', /^the compare view of 256 input\(s\) × 600 feature\(s\) needs 617,984 SVG elements, over the budget of 24,000: /);
  assert.equal(compareElements(256, 2, 600), 617_984);
  assert.equal(viewOverBudget(a.data, 'matrix'), undefined, 'views that do not grow with the features are not refused');
  const fits = analyzeOk(JSON.parse(wideSpec(100, 8)));
  assert.ok(compareElements(8, 2, 100) <= COMPARE.max);
  assert.equal(viewOverBudget(fits.data, 'compare'), undefined);
});

test('attn render --view compare of 150,000 features or 256 inputs × 600 features: one line, exit 1, no SVG', async () => {
  for (const [features, inputs] of [[150_000, 1], [600, 256]]) {
    const file = tempSpec(wideSpec(features, inputs));
    const started = Date.now();
    const r = await attn('render', file, '--view', 'compare');
    assert.equal(r.code, 1, r.err);
    assert.equal(r.out, '');
    assert.match(r.err, /^attn render: the compare view of \d+ input\(s\) × [\d,]+ feature\(s\) needs [\d,]+ SVG elements, over the budget/);
    assert.equal(r.err.split('\n').length, 1);
    assert.ok(Date.now() - started < 15_000, `${features} × ${inputs} took ${Date.now() - started} ms`);
  }
});
