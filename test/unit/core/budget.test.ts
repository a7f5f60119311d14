// The work budgets (src/core/budget.ts), from shapes alone: what attn compute would print and what
// the rollout would multiply, checked at their boundaries, and the sentence a passed budget gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCAN_INFLATED, scanHelpersWithin } from '../../../src/core/budget.js';
import { base64Chars, MODEL_PAGE, MODEL_SVG, modelPageBytes, modelSvgBytes, overBudget, PRINTED, printedNumbers, ROLLOUT, rolloutWork, THUMBNAILS, thumbnailSide } from '../../../src/core/budget.js';
import { analyze } from '../../../src/core/index.js';
import { exampleText } from '../../support/specs.js';

test('printed numbers: the weights once, then each input\'s x, q, k, v, heads\' outputs and three n × n per head', () => {
  // d_model 3, one head of d_k 2, d_v 3; one input of 4 tokens, no W_O: 3·(2·2+3) + 4·3 + 4·(2·2 + 2·3) + 3·16.
  assert.equal(printedNumbers(3, [4], [{ dk: 2, dv: 3 }], false), 21 + 12 + 40 + 48);
  // W_O adds each token's output, and per head its value norms (4; the value-weighted n × n is not printed).
  assert.equal(printedNumbers(3, [4], [{ dk: 2, dv: 3 }], true), 21 + 24 + 40 + 48 + 4, 'W_O adds each token\'s output and the norms');
});

test('the spec limit\'s largest attention (4 heads of 1,024 tokens) is within the print budget; a 4,194,304-wide embedding is not', () => {
  assert.ok(printedNumbers(64, [1024], Array(4).fill({ dk: 16, dv: 16 }), false) <= PRINTED.max);
  // With W_O it also prints each head's value norms: n numbers a head, still within the budget.
  assert.ok(printedNumbers(64, [1024], Array(4).fill({ dk: 16, dv: 16 }), true) <= PRINTED.max);
  assert.ok(printedNumbers(4_194_304, [4], [{ dk: 1, dv: 1 }], false) > PRINTED.max);
  assert.equal(overBudget(PRINTED, PRINTED.max, 'x', 'y'), undefined, 'the budget itself is allowed');
  assert.equal(overBudget(ROLLOUT, rolloutWork(16, 1024), '16 layers', 'fewer'), 'the rollout of 16 layers needs 17.2 billion multiply-adds, over the budget of 4.0 billion: fewer');
});

test('compute --json of every example is within the budget; one past it is an error at the inputs, with no JSON built', () => {
  for (const name of ['apple-watch-lens.attn.json', 'long-64-tokens-8-heads.attn.json', 'seed-projection-512-64.attn.json']) {
    const a = analyze(exampleText(name), { json: true });
    assert.ok(a.json, name);
  }
  // 90 inputs of 100 tokens at d_model 2,000: within every reading limit (900,000 cells), 18 million numbers to print.
  const thin = (seed: number) => ({ init: 'xavier', shape: [2000, 1], seed });
  const wide = JSON.stringify({
    embeddings: { a: Array.from({ length: 2000 }, (_, i) => (i === 0 ? 1 : 0)) },
    inputs: Array.from({ length: 90 }, (_, i) => ({ name: `x${i}`, tokens: Array(100).fill('a') })),
    heads: [{ name: 'h', wq: thin(1), wk: thin(2), wv: thin(3) }],
  });
  const over = analyze(wide, { json: true });
  assert.equal(over.json, undefined);
  const problem = over.problems.find((p) => p.path === 'inputs' && p.severity === 'error');
  assert.match(problem?.message ?? '', /^attn compute's output of 90 input\(s\) at d_model 2,000 needs [\d.]+ million numbers, over the budget of 16\.0 million/);
});

test('the thumbnails\' side: the full side while layers · heads · side² fits, else halved until it does', () => {
  assert.equal(thumbnailSide(32, 32, 64), 64, '1,024 heads at 64² are the budget itself');
  assert.equal(thumbnailSide(32, 33, 64), 32);
  assert.equal(thumbnailSide(128, 128, 64), 16, 'the most heads a file may have (16,384) fit at 16²');
  assert.equal(thumbnailSide(2, 2, 7), 7, 'a short head keeps its own side');
  for (let heads = 1; heads <= 16384; heads = heads * 3 + 1) {
    const t = thumbnailSide(1, heads, 64);
    assert.ok(heads * t * t <= THUMBNAILS.max && (t === 64 || heads * (2 * t) ** 2 > THUMBNAILS.max), `${heads} heads: ${t}`);
  }
});

test('a model page\'s bytes: base64 of the float32 it carries, the picture\'s indices and each head\'s statistics', () => {
  const shape = { layers: 1, heads: 1, tokens: 3, thumb: 3, wholeHeads: 0, pictureSide: 0, rollout: false };
  assert.equal(modelPageBytes(shape), base64Chars(36) + 200);
  assert.equal(modelPageBytes({ ...shape, wholeHeads: 1, rollout: true }), 3 * base64Chars(36) + 200);
  assert.equal(modelPageBytes({ ...shape, pictureSide: 2 }), base64Chars(36) + base64Chars(4) + 200);
  // A whole 4,096² head is over the page's budget; its 512² picture is far within it.
  const long = { layers: 1, heads: 1, tokens: 4096, thumb: 64, wholeHeads: 1, pictureSide: 0, rollout: false };
  assert.ok(modelPageBytes(long) > MODEL_PAGE.max);
  assert.ok(modelPageBytes({ ...long, wholeHeads: 0, pictureSide: 512 }) < MODEL_PAGE.max / 100);
  assert.ok(modelSvgBytes(128, 128, 16) > MODEL_SVG.max && modelSvgBytes(32, 32, 64) < MODEL_SVG.max);
});

test('the scan\'s helpers: each reader of a deflated file holds its own copy, so their count is bounded by the copies\' size', () => {
  assert.equal(scanHelpersWithin(undefined, 3), 3, 'a file read at offsets: every helper');
  assert.equal(scanHelpersWithin(503_316_608, 3), 0, '15 heads of 4,096² in F16: its one reader alone');
  assert.equal(scanHelpersWithin(SCAN_INFLATED.max / 2, 3), 1);
  assert.equal(scanHelpersWithin(1024, 3), 3);
  for (let inflated = 1; inflated < 2 * SCAN_INFLATED.max; inflated = Math.ceil(inflated * 1.7)) {
    const helpers = scanHelpersWithin(inflated, 3);
    assert.ok((1 + helpers) * inflated <= SCAN_INFLATED.max || helpers === 0, `${inflated}: ${helpers}`);
  }
});
