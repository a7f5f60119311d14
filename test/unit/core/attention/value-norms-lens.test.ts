// Value-weighted norms of the lens on a real head (a GPT-2 head written as a spec by
// src/core/checkpoint-spec/lens-spec.ts, computed by src/core/attention/value-norms.ts): each token's
// vector is [x | 1], W_V's last row is the head's value bias and W_O has a zero column for the
// constant, so the spec's ‖v_j W_O‖ is the real head's ‖(x_j W_V + b_V) W_O^h‖, bias included.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { lensSpec } from '../../../../src/core/checkpoint-spec/lens-spec.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import type { HeadLens } from '../../../../src/core/checkpoint/types.js';
import { fakeHeadLens } from '../../../support/head-lens.js';
import { headLens } from '../../../../src/core/checkpoint/lens.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function computeLens(lens: HeadLens, stem: string) {
  const { spec, tensors } = lensSpec(lens, { tensorFile: `${stem}.safetensors`, model: 'tiny' });
  writeFileSync(join(dir, `${stem}.safetensors`), writeSafetensors(tensors));
  const a = analyze(JSON.stringify(spec), { files: folderFiles(dir), json: true });
  assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), []);
  return a;
}

/** ‖rows_j · W‖ for each row j of [n, k] `rows` and [k, m] `w`, written out. */
function rowNormsThrough(rows: Float64Array, n: number, k: number, w: Float64Array, m: number): number[] {
  return Array.from({ length: n }, (_, j) => {
    let s = 0;
    for (let e = 0; e < m; e++) {
      let dot = 0;
      for (let t = 0; t < k; t++) dot += rows[j * k + t] * w[t * m + e];
      s += dot * dot;
    }
    return Math.sqrt(s);
  });
}

test('a GPT-2 head with biases: the spec\'s ‖v_j W_O‖ is the head\'s ‖(x_j W_V + b_V) W_O^h‖, and its norms the run\'s α times it', () => {
  const lens = fakeHeadLens({ n: 9, dModel: 12, headDim: 4, rotary: false, biases: true, seed: 5 });
  const a = computeLens(lens, 'gpt2');
  const head = a.result!.inputs[0].heads[0];
  // lens.v is the run's x W_V + b_V; lens.wo the head's [headDim, dModel] rows of the output projection.
  const expected = rowNormsThrough(lens.v, 9, 4, lens.wo, 12);
  assert.ok(head.valueNorms, 'the lens spec has W_O, so it has value norms');
  expected.forEach((e, j) => assert.ok(Math.abs(head.valueNorms!.data[j] - e) <= 1e-9 * Math.max(1, e), `key ${j}: ${head.valueNorms!.data[j]} vs ${e}`));
  // The bias is in: without it the norms would differ.
  const x = lens.x, wv = lens.wv, noBias = new Float64Array(9 * 4);
  for (let i = 0; i < 9; i++) for (let t = 0; t < 4; t++) for (let d = 0; d < 12; d++) noBias[i * 4 + t] += x[i * 12 + d] * wv[d * 4 + t];
  const without = rowNormsThrough(noBias, 9, 4, lens.wo, 12);
  assert.ok(without.some((w, j) => Math.abs(w - expected[j]) > 1e-6), 'b_V changes ‖v W_O‖');
  // The norms are the run's own weights times ‖v_j W_O^h‖, to the weights' 1e-5.
  for (let i = 0; i < 9; i++) for (let j = 0; j < 9; j++) {
    const want = lens.weights[i * 9 + j] * expected[j];
    assert.ok(Math.abs(head.norms!.data[i * 9 + j] - want) <= 1e-5 * Math.max(1, expected[j]), `norms[${i}][${j}]`);
  }
  assert.ok(!('norms' in a.json!.inputs[0].heads[0]), 'the n × n is the weights times valueNorms, not printed twice');
  assert.equal(a.json!.inputs[0].heads[0].valueNorms!.length, 9);
});

test('a rotary head\'s lens has no W_O (its vectors are [q | k | v]): no value norms, rather than wrong ones', () => {
  const a = computeLens(fakeHeadLens({ n: 6, dModel: 8, headDim: 4, rotary: true, biases: false, seed: 9 }), 'llama');
  assert.equal(a.result!.inputs[0].heads[0].valueNorms, undefined);
  assert.equal(a.json!.inputs[0].heads[0].valueNorms, undefined);
});

test('a real GPT-2 checkpoint\'s head in the lens: the spec\'s norms are the ones attn run --norms gives that layer and head', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 4);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  const text = '1 17 5 5 39 0 12 8', ids = text.split(' ').map(Number), n = ids.length, layer = 1, h = 2;
  const run = analyzeText(m, idsTokenizer(m.config.vocab), text, { norms: true });
  const a = computeLens(headLens(m, ids, ids.map((id) => `t${id}`), layer, h), 'gpt2-real');
  const head = a.result!.inputs[0].heads[0];
  let worst = 0;
  for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(head.valueNorms!.data[j] - run.analyses.valueNorms![layer][h * n + j]));
  for (let c = 0; c < n * n; c++) worst = Math.max(worst, Math.abs(head.norms!.data[c] - run.analyses.norms![layer][h * n * n + c]));
  assert.ok(worst < 1e-9, `off by ${worst}`);
  assert.ok(head.norms!.data.some((v) => v > 0.01), 'not all 0');
});
