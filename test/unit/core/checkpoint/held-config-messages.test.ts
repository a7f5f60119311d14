// Config values that once misled or ran to NaN, held as fixed: a null head_dim is Hugging Face's
// "absent" (the hidden size over the heads), never a fractional head size; a model_type that is a
// list or null is said as what it is, a list not "missing"; and a subnormal or tiny rope_theta is
// either refused by name or gives finite attention, never NaN (a seeded family of thetas).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModelConfig } from '../../../../src/core/checkpoint/config.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { ModelError } from '../../../../src/core/checkpoint/error.js';
import { QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { seeded } from '../../../support/random.js';

test('a null head_dim is the hidden size over the heads; with an uneven split the message names both keys', () => {
  assert.equal(readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, head_dim: null })).headDim, 4);
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, hidden_size: 18, head_dim: null })), (e: unknown) => {
    const message = (e as Error).message;
    assert.match(message, /"hidden_size" 18 is not a multiple of "num_attention_heads" 4/);
    assert.doesNotMatch(message, /4\.5/);
    return true;
  });
});

test('a model_type that is a list, an object or a number is said as what it is; only an absent or null one is "missing"', () => {
  for (const value of [['qwen2'], [], { name: 'qwen2' }, 2]) {
    assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, model_type: value })), new RegExp(`"model_type" must be a string .*got ${JSON.stringify(value).replace(/[[\]{}]/g, '\\$&')}`));
  }
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, model_type: undefined })), /"model_type" is missing/);
});

test('a tiny or subnormal rope_theta is refused naming rope_theta, or runs to finite attention (seeded family)', () => {
  const config = { ...QWEN2_CONFIG, head_dim: 64 };
  const { tensors } = tinyCheckpoint(config, 1);
  const rand = seeded(20261135);
  let refused = 0, ran = 0;
  for (let c = 0; c < 24; c++) {
    // From the smallest subnormal (5e-324) to 1e-3, spread over the exponents.
    const theta = c === 0 ? 5e-324 : 10 ** -(3 + rand() * 320);
    let model;
    try {
      model = loadModel(JSON.stringify({ ...config, rope_theta: theta }), tensors, { precision: 'f64' });
    } catch (e) {
      assert.ok(e instanceof ModelError && /"rope_theta"/.test(e.message), `${theta}: ${String(e)}`);
      refused++;
      continue;
    }
    ran++;
    const out = forward(model.config, model.names, model.weights, [1, 2, 3, 4, 5, 6, 7, 8], { precision: 'f64' });
    for (const layer of out.attention) assert.ok(layer.every(Number.isFinite), `rope_theta ${theta}: attention is finite`);
  }
  assert.ok(refused > 0 && ran > 0, `${refused} refused, ${ran} ran`);
});
