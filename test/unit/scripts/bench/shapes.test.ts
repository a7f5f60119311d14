// bench:model's shapes and FLOP count: each shape's tensors (as our loader names them) add up to the
// parameter count its model card publishes, and the forward's FLOPs follow from those matrices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesOf } from '../../../../src/core/checkpoint/weights.js';
import { forwardFlops, layerMatrices, modelConfig, shapeOf, SHAPES } from '../../../../scripts/bench/shapes.js';

const parameters = (key: string) => {
  const { shapes } = namesOf(modelConfig(shapeOf(key)!), () => false);
  return [...shapes.values()].reduce((s, shape) => s + shape.reduce((a, b) => a * b, 1), 0);
};

test('each shape has the published parameter count of the model it stands for', () => {
  assert.equal(parameters('gpt2'), 124_439_808, 'GPT-2 small');
  assert.equal(parameters('qwen'), 494_032_768, 'Qwen2.5-0.5B, tied');
  assert.equal(parameters('llama'), 1_235_814_400, 'Llama-3.2-1B, tied');
});

test('the layer matrices are every 2-D weight of a layer: their count is what the layer holds but its norms and biases', () => {
  for (const s of SHAPES) {
    const c = modelConfig(s);
    const { shapes } = namesOf(c, () => false);
    const inLayers = [...shapes.entries()].filter(([name, shape]) => /(^|\.)(h|layers)\.\d+\./.test(name) && shape.length === 2);
    const weights = inLayers.reduce((sum, [, shape]) => sum + shape[0] * shape[1], 0);
    assert.equal(layerMatrices(c).reduce((sum, x) => sum + x.k * x.m * x.count, 0), weights, s.key);
  }
});

test('a forward\'s FLOPs: 2·n per matrix weight, the causal half of attention, the head at one position', () => {
  const c = modelConfig(shapeOf('gpt2')!);
  const f = forwardFlops(c, 128);
  assert.equal(f.matrices, 2 * 128 * 12 * (768 * 2304 + 768 * 768 + 2 * 768 * 3072));
  assert.equal(f.attention, 12 * 4 * 768 * (128 * 129) / 2);
  assert.equal(f.head, 2 * 768 * 50257);
  assert.equal(f.total, f.matrices + f.attention + f.head);
  // Grouped-query attention: queries count every head, keys and values their own smaller matrices.
  const q = modelConfig(shapeOf('qwen')!);
  assert.equal(forwardFlops(q, 1).matrices, 2 * 24 * (896 * 896 * 2 + 896 * 128 * 2 + 3 * 896 * 4864));
});
