// A run with the analyses (analyze-text.ts) stopped part way: every layer of every pass it makes (each
// generation step, the ablated run, the corrupted run and each patched run) and every row of the
// logit lens gives the caller its chance to stop, so a cancelled patching or generation does not run
// on for L · H passes or N steps; and a stop at any of those chances ends the run there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel, RunStopped } from '../../../../src/core/checkpoint/model.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import type { AnalysisRequest } from '../../../../src/core/model-analysis/types.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const TEXT = '1 17 5 5 39 0 12 8';
const CORRUPTED = '9 17 5 5 39 0 12 8';
const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 3);
const m = loadModel(configText, tensors, { precision: 'f64' });
const L = m.config.layers, H = m.config.heads, n = TEXT.split(' ').length;

const CASES: { name: string; request: AnalysisRequest; layers: number; rows: number }[] = [
  // N steps of L layers, then the run over prompt + generated.
  { name: 'generation', request: { generate: 3 }, layers: 3 * L + L, rows: 0 },
  // The run, the corrupted run, then each head's patched run from its layer on.
  { name: 'patching', request: { target: '7', contrast: '11', patchFrom: CORRUPTED }, layers: L + L + H * (L * (L + 1)) / 2, rows: 0 },
  { name: 'ablation', request: { ablate: { heads: [{ layer: 1, head: 0 }], labels: ['2.1'], mode: 'mean' } }, layers: L + 1, rows: 0 },
  { name: 'the logit lens', request: { logitLens: true }, layers: L, rows: L * n },
];

for (const c of CASES) {
  test(`${c.name}: each layer of each pass is reported, and each gives a chance to stop`, () => {
    let layers = 0, asked = 0;
    analyzeText(m, idsTokenizer(40), TEXT, c.request, { onLayer: () => { layers++; }, stopped: () => { asked++; return false; } });
    assert.equal(layers, c.layers);
    // Once before the pass, once after each layer, once after each row of the lens.
    assert.equal(asked, 1 + c.layers + c.rows);
  });

  test(`${c.name}: stopped at any chance, the run ends there with RunStopped`, () => {
    for (let at = 1; at <= 1 + c.layers + c.rows; at++) {
      let asked = 0;
      assert.throws(() => analyzeText(m, idsTokenizer(40), TEXT, c.request, { stopped: () => ++asked >= at }), RunStopped, `${c.name}: stopped at ${at}`);
      assert.equal(asked, at, `${c.name}: asked again after the stop at ${at}`);
    }
  });
}
