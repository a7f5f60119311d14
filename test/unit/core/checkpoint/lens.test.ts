// The lens on a real head (src/core/checkpoint/lens.ts): from the numbers it returns alone,
// softmax((q · kᵀ) / scale + causal mask) is the head's attention in the run to 1e-6, for gpt2
// (Conv1D slices, biases) and qwen2 (nn.Linear slices transposed, biases, RoPE, GQA, head_dim ≠
// d_model / heads); q is x · W_Q + b_Q where there is no rotation, and W_O's rows are the head's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headLens } from '../../../../src/core/checkpoint/lens.js';
import { loadModel, runText } from '../../../../src/core/checkpoint/model.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { GPT2_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const IDS = [3, 17, 5, 5, 39, 0, 12, 8, 3];
/** A tokenizer that gives IDS whatever the text. */
const fixed: Tokenizer = { vocabSize: 40, encode: () => ({ ids: IDS, pieces: IDS.map(String) }), decodeOne: (id) => `t${id}` };

function weightsFrom(l: ReturnType<typeof headLens>): Float64Array {
  const n = IDS.length, D = l.headDim, out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const scores = Array.from({ length: n }, (_, j) => {
      if (j > i) return -Infinity;
      let s = 0;
      for (let t = 0; t < D; t++) s += l.q[i * D + t] * l.k[j * D + t];
      return s / l.scale;
    });
    const top = scores.slice(0, i + 1).reduce((a, b) => Math.max(a, b), -Infinity);
    const e = scores.map((s) => Math.exp(s - top));
    const sum = e.reduce((a, b) => a + b, 0);
    e.forEach((v, j) => { out[i * n + j] = v / sum; });
  }
  return out;
}

for (const [name, config] of [['gpt2', GPT2_CONFIG], ['qwen2', QWEN2_CONFIG]] as const) {
  test(`${name}: every head's q, k from the lens reproduce the run's attention to 1e-6`, () => {
    const { configText, tensors } = tinyCheckpoint(config, 7);
    const model = loadModel(configText, tensors, { precision: 'f64' });
    const run = runText(model, fixed, 'any');
    const c = model.config, n = IDS.length;
    for (let layer = 0; layer < c.layers; layer++) {
      for (let head = 0; head < c.heads; head++) {
        const l = headLens(model, IDS, run.tokens, layer, head);
        assert.equal(l.kvHead, Math.floor(head / (c.heads / c.kvHeads)));
        assert.equal(l.rotary, name !== 'gpt2');
        assert.deepEqual([l.wq.length, l.wo.length, l.x.length, l.q.length], [c.dModel * c.headDim, c.headDim * c.dModel, n * c.dModel, n * c.headDim]);
        const mine = weightsFrom(l);
        const theirs = run.attention[layer].subarray(head * n * n, (head + 1) * n * n);
        for (let i = 0; i < n * n; i++) {
          assert.ok(Math.abs(mine[i] - theirs[i]) < 1e-6, `layer ${layer} head ${head} cell ${i}: ${mine[i]} vs ${theirs[i]}`);
          assert.ok(Math.abs(l.weights[i] - theirs[i]) < 1e-6);
        }
        if (!l.rotary) {
          // No rotation: q is exactly x · W_Q + b_Q.
          for (let i = 0; i < n; i++) for (let d = 0; d < c.headDim; d++) {
            let s = l.bq![d];
            for (let e = 0; e < c.dModel; e++) s += l.x[i * c.dModel + e] * l.wq[e * c.headDim + d];
            assert.ok(Math.abs(s - l.q[i * c.headDim + d]) < 1e-9);
          }
        }
      }
    }
  });
}

test('a layer or head outside the model is refused in a sentence', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const model = loadModel(configText, tensors, { precision: 'f64' });
  assert.throws(() => headLens(model, IDS, [], 2, 0), /layer 2 is not one of the model's 2 layers/);
  assert.throws(() => headLens(model, IDS, [], 0, 4), /head 4 is not one of the model's 4 heads/);
});
