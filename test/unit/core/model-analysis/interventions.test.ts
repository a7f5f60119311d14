// The probes that change a run (src/core/model-analysis/interventions.ts): a head listed twice for a
// mean ablation is ablated once, bit for bit as listed once (a second mean of the first's constant is
// not that constant in float64 sums).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { ablationProbe } from '../../../../src/core/model-analysis/interventions.js';
import { GPT2_CONFIG, QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const IDS = [1, 17, 5, 5, 39, 0, 12, 8, 3, 21, 30];

for (const [family, config] of Object.entries({ gpt2: GPT2_CONFIG, qwen3: QWEN3_CONFIG })) {
  test(`${family}: a head listed three times is mean-ablated once, the same bits as listed once`, () => {
    const { configText, tensors } = tinyCheckpoint(config, 3);
    const m = loadModel(configText, tensors, { precision: 'f64' });
    const run = (heads: { layer: number; head: number }[]) => forward(m.config, m.names, m.weights, IDS, { precision: 'f64', probe: ablationProbe(heads, 'mean', m.config.headDim) });
    const head = { layer: 0, head: 1 };
    const once = run([head]);
    assert.deepEqual(run([head, { ...head }, head]).logits, once.logits);
    assert.notDeepEqual(once.logits, forward(m.config, m.names, m.weights, IDS, { precision: 'f64' }).logits, 'the ablation changes the run');
  });
}
