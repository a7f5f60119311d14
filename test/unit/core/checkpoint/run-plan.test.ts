// How a run keeps its attention (model.ts runPlan) and what it costs: every head while that is at
// most DENSE_ATTENTION_MAX, else each layer's q and k (in a file past QK_MEMORY_MAX when the caller
// has a file store); the estimate counts q and k, never n² per head, for such a run (a Llama-3.2-1B
// at 8,192 tokens: within the weights as stored + 1.5 GB), and its refusal says where q and k are.
// runText on a forced qk run returns the source and the pass, and the rows of a dense run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModelConfig } from '../../../../src/core/checkpoint/config.js';
import { DENSE_ATTENTION_MAX, denseAttentionBytes, loadModel, plannerFor, QK_MEMORY_MAX, runBytes, runPlan, runRefusal, runText, type RunShape } from '../../../../src/core/checkpoint/model.js';
import { qkBytes } from '../../../../src/core/model-attention/qk-store.js';
import { layersAttention } from '../../../../src/core/tensors/attention-source.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { QK_SHAPES } from '../../../support/qk-models.js';
import { tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const LLAMA_1B = {
  model_type: 'llama', hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 64, intermediate_size: 8192,
  num_hidden_layers: 16, vocab_size: 128256, tie_word_embeddings: true, max_position_embeddings: 131072, rope_theta: 500000, rms_norm_eps: 1e-5,
};
const embed = 128256 * 2048 * 2, layer = (2 * 2048 * 2048 + 2 * 2048 * 512 + 3 * 2048 * 8192) * 2;
const STORED = embed + 16 * layer + (16 * 2 + 1) * 2048 * 2;
const llama: RunShape = {
  config: readModelConfig(JSON.stringify(LLAMA_1B)), keep: false, precision: 'f32',
  elements: { total: STORED / 2, largest: embed / 2, product: 2048 * 8192, bytes: { total: STORED, largest: embed, embed } },
};
const GiB = 2 ** 30;

test('the plan: dense up to DENSE_ATTENTION_MAX of heads, then q and k (float32 only), in a file past QK_MEMORY_MAX when there is a file store', () => {
  assert.ok(STORED > 2.46e9 && STORED < 2.48e9, `${STORED}`);
  const c = llama.config;
  assert.deepEqual(runPlan(llama, 128), { attention: 'dense' });
  assert.ok(denseAttentionBytes(c, 724) <= DENSE_ATTENTION_MAX && denseAttentionBytes(c, 725) > DENSE_ATTENTION_MAX);
  assert.deepEqual(runPlan(llama, 724), { attention: 'dense' });
  assert.deepEqual(runPlan(llama, 725), { attention: 'qk', qkIn: 'memory' });
  const at8k = qkBytes({ layers: 16, heads: 32, kvHeads: 8, headDim: 64, n: 8192 });
  assert.ok(at8k > QK_MEMORY_MAX);
  assert.deepEqual(runPlan(llama, 8192, { fileStore: true }), { attention: 'qk', qkIn: 'file' });
  assert.deepEqual(runPlan(llama, 256, { attention: 'qk', fileStore: true }), { attention: 'qk', qkIn: 'memory' });
  assert.deepEqual(runPlan(llama, 8192, { attention: 'dense' }), { attention: 'dense' });
  assert.deepEqual(runPlan({ ...llama, precision: 'f64' }, 8192), { attention: 'dense' });
  assert.deepEqual(plannerFor(llama, {})(8192), { attention: 'dense' }, 'dense unless asked');
  assert.deepEqual(plannerFor(llama, { attention: (n) => (n > 100 ? 'qk' : 'dense') })(101), { attention: 'qk', qkIn: 'memory' });
});

test('a qk run\'s estimate counts q and k, not n² per head: a Llama-3.2-1B at 8,192 tokens within the weights as stored + 1.5 GB', () => {
  const file = runPlan(llama, 8192, { fileStore: true }), memory = runPlan(llama, 8192);
  const qk = qkBytes({ layers: 16, heads: 32, kvHeads: 8, headDim: 64, n: 8192 });
  assert.equal(runBytes(llama, 8192, memory) - runBytes(llama, 8192, file), qk);
  assert.ok(runBytes(llama, 8192, file) <= STORED + 1.5 * GiB, `${runBytes(llama, 8192, file) / GiB} GiB`);
  assert.ok(runBytes(llama, 8192) > 100 * GiB, 'dense counts every head');
  assert.ok(runBytes(llama, 4096, memory) < runBytes(llama, 8192, memory));
  const said = runRefusal(llama, 8192, 2 * GiB, plannerFor(llama, { attention: 'auto', qkStore: () => { throw new Error('not made'); } }))!;
  assert.match(said, /^a run of 8192 tokens on this llama model needs about [\d.]+ GB \([\d.]+ GB of weights as stored, one layer's activations in float32, each layer's queries and keys \(1\.3 GB, in a temporary file, not counted\) instead of every head's 8192 × 8192\), over the budget of 2\.0 GB: use --max-tokens \d+ or fewer$/);
  assert.match(runRefusal(llama, 8192, 2 * GiB, plannerFor(llama, { attention: 'auto' }))!, /\(1\.3 GB, in memory\)/);
  assert.equal(runRefusal(llama, 8192, 3 * GiB, plannerFor(llama, { attention: 'auto', qkStore: () => { throw new Error('not made'); } })), undefined);
});

test('runText with attention qk: empty heads, the source and the pass, each row the dense run\'s; the kept run let go', () => {
  const { configText, tensors } = tinyCheckpoint(QK_SHAPES['qwen2 (grouped-query, RoPE)'], 4);
  const m = loadModel(configText, tensors, { keep: true });
  const text = Array.from({ length: 300 }, (_, i) => `t${(i * 7) % 40}`).join(' ');
  const dense = runText(m, idsTokenizer(40), text, { attention: 'dense' });
  assert.ok(m.kept && dense.qk === undefined);
  const r = runText(m, idsTokenizer(40), text, { attention: 'qk' });
  assert.equal(m.kept, undefined);
  assert.ok(r.qk);
  assert.deepEqual(r.attention.map((a) => a.length), [0, 0]);
  assert.deepEqual(r.next, dense.next);
  assert.deepEqual([r.qk.where, r.qk.bytes, r.qk.source.file, r.qk.source.n], ['memory', qkBytes({ layers: 2, heads: 4, kvHeads: 2, headDim: 6, n: 300 }), 'the run', 300]);
  const want = layersAttention('the run', dense.attention, 4, 300, dense.tokens);
  for (let layer = 0; layer < 2; layer++) for (let head = 0; head < 4; head++) assert.deepEqual(r.qk.source.rowBytes(layer, head, 0, 300), want.rowBytes(layer, head, 0, 300));
  assert.deepEqual(r.qk.pass, passOverHeads(want, { thumb: r.qk.thumb, picture: r.qk.picture, columnMax: true }));
  r.qk.source.close();
});
