// The refusal of a run with analyses over its budget (analyze-text.ts) names the number a user can
// pass as --max-tokens and be run: the text's tokens, with the generated ones and the analyses' own
// memory counted, not a plain run's most tokens (which has the generated ones in it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel, runBytes } from '../../../../src/core/checkpoint/model.js';
import { analysisBytes, analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import type { AnalysisRequest } from '../../../../src/core/model-analysis/types.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const { configText, tensors } = tinyCheckpoint(QWEN3_CONFIG, 3);
const m = loadModel(configText, tensors, { precision: 'f32' });
const TEXT = Array.from({ length: 200 }, (_, i) => String((i * 7) % 40)).join(' ');
const tokenizer = idsTokenizer(40);

/** The number the refusal names, and checks that it runs and one more does not. */
function named(request: AnalysisRequest, options: { budget?: number; refuse?: (n: number) => string | undefined }): number {
  let message = '';
  assert.throws(() => analyzeText(m, tokenizer, TEXT, request, options), (e: Error) => { message = e.message; return true; });
  const said = /use --max-tokens (\d+) or fewer/.exec(message);
  assert.ok(said, message);
  const fits = Number(said[1]);
  analyzeText(m, tokenizer, TEXT, request, { ...options, maxTokens: fits });
  assert.throws(() => analyzeText(m, tokenizer, TEXT, request, { ...options, maxTokens: fits + 1 }));
  return fits;
}

test('over the memory budget with generated tokens and the norms: the most text tokens that run with them', () => {
  const request: AnalysisRequest = { norms: true, generate: 50 };
  // Room for 150 tokens in all (the kept keys that generation holds counted): 100 of the text.
  const budget = runBytes({ ...m, keep: true }, 150) + analysisBytes(m.config, 150, request, 4) + 1;
  assert.equal(named(request, { budget }), 100);
});

test('the caller\'s own refusal (--json\'s printed numbers) with generated tokens: its count less the generated ones', () => {
  const refuse = (n: number) => (n > 120 ? `too many: use --max-tokens 120 or fewer` : undefined);
  assert.equal(named({ generate: 50, norms: true }, { refuse }), 70);
  assert.equal(named({ norms: true }, { refuse }), 120);
});

test('the analyses alone over the budget name a number too, where they said only "fewer"', () => {
  const request: AnalysisRequest = { norms: true };
  const budget = analysisBytes(m.config, 120, request, 4) + 1;
  const fits = named(request, { budget });
  assert.ok(fits > 0 && fits < 120, String(fits));
});

test('where not one token of the text runs beside the generated ones, the refusal says to generate fewer', () => {
  const refuse = (n: number) => (n > 40 ? `too many: use --max-tokens 40 or fewer` : undefined);
  assert.throws(() => analyzeText(m, tokenizer, TEXT, { generate: 60 }, { refuse }), (e: Error) => e.message === 'too many: generate fewer tokens');
});

test('the norms and the attribution count a layer\'s W_O as they read it: widened whole, then each head\'s rows', () => {
  const c = m.config, wo = c.heads * c.headDim * c.dModel;
  assert.ok(analysisBytes(c, 1, { norms: true }, 4) >= wo * 8);
  assert.ok(analysisBytes(c, 1, { norms: true }, 8) >= wo * 20);
  // The attribution reads W_O in float64 whatever the run's precision.
  for (const bytes of [4, 8]) assert.ok(analysisBytes(c, 1, { target: '3' }, bytes) >= wo * 20);
});

test('a preloading model reads every weight first only where they fit beside the analyses\' memory', () => {
  const request: AnalysisRequest = { ablate: { heads: [{ layer: 1, head: 0 }], labels: ['2.1'], mode: 'zero' } };
  const preloading = () => loadModel(configText, tensors, { precision: 'f32', preload: true });
  const n = 200, extra = analysisBytes(m.config, n, request, 4);
  // Room for the run with every weight held, but not for that and the analyses; room for the run that reads each weight as it goes and the analyses.
  const budget = runBytes({ ...m, keep: true }, n) + 1;
  assert.ok(runBytes(m, n) + extra <= budget && runBytes({ ...m, keep: true }, n) + extra > budget);
  const held = preloading();
  analyzeText(held, tokenizer, TEXT, {}, { budget });
  const all = held.weights.bytes;
  const streamed = preloading();
  analyzeText(streamed, tokenizer, TEXT, request, { budget });
  assert.ok(streamed.weights.bytes < all, `${streamed.weights.bytes} bytes held, every weight is ${all}`);
});
