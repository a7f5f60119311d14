// Value-weighted norms (src/core/model-analysis/norms.ts) against the definition computed the long
// way from a layer's recording: α_ij · ‖(x_j W_V^h + b_V^h) W_O^h‖₂, the value of h's key/value head
// under grouped-query attention, W_O^h the rows of the output projection head h's output meets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { widened64 } from '../../../../src/core/checkpoint/stored-read.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { BERT_CONFIG, GPT2_CONFIG, QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const TEXT = '1 17 5 5 39 0 12 8';
const IDS = TEXT.split(' ').map(Number);

for (const [family, config] of Object.entries({ gpt2: GPT2_CONFIG, qwen3: QWEN3_CONFIG, bert: BERT_CONFIG })) {
  test(`${family}: norms are α_ij · ‖v_j W_O^h‖ of every layer, head, query and key (1e-12 in float64, 1e-5 in float32)`, () => {
    for (const precision of ['f64', 'f32'] as const) {
      const { configText, tensors } = tinyCheckpoint(config, 4);
      const m = loadModel(configText, tensors, { precision });
      const c = m.config, n = IDS.length, H = c.heads, D = c.headDim, E = c.dModel, KV = c.kvHeads * D;
      const r = analyzeText(m, idsTokenizer(c.vocab), TEXT, { norms: true });
      assert.equal(r.analyses.norms!.length, c.layers);
      for (let layer = 0; layer < c.layers; layer++) {
        const rec = forward(c, m.names, m.weights, IDS, { precision: 'f64', capture: { layer } }).captured!;
        const wo = widened64(m.weights.matrix(m.names.layers[layer].o));
        let worst = 0;
        for (let h = 0; h < H; h++) {
          const kv = Math.floor(h / (H / c.kvHeads));
          for (let j = 0; j < n; j++) {
            const out = new Float64Array(E);
            for (let d = 0; d < D; d++) {
              const v = rec.v[j * KV + kv * D + d];
              for (let e = 0; e < E; e++) out[e] += v * (c.block.matrices === 'conv1d' ? wo[(h * D + d) * E + e] : wo[e * H * D + h * D + d]);
            }
            const size = Math.hypot(...out);
            assert.ok(Math.abs(r.analyses.valueNorms![layer][h * n + j] - size) < (precision === 'f64' ? 1e-12 : 1e-5) * Math.max(1, size));
            for (let i = 0; i < n; i++) {
              const want = rec.weights[(h * n + i) * n + j] * size;
              worst = Math.max(worst, Math.abs(r.analyses.norms![layer][(h * n + i) * n + j] - want));
            }
          }
        }
        assert.ok(worst < (precision === 'f64' ? 1e-12 : 1e-5), `${family} ${precision} layer ${layer + 1}: off by ${worst}`);
        assert.ok(r.analyses.norms![layer].some((v) => v > 0.01), 'the norms are not all 0');
      }
    }
  });
}

test('an encoder runs the norms but refuses what reads the next token, in one sentence', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 4);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  for (const request of [{ logitLens: true }, { target: '3' }, { generate: 2 }]) {
    assert.throws(() => analyzeText(m, idsTokenizer(m.config.vocab), TEXT, request), (e: Error) => /encoder: it predicts no next token/.test(e.message) && !e.message.includes('\n'));
  }
});
