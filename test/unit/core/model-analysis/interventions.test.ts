// The probes that change a run (src/core/model-analysis/interventions.ts): a head listed twice for a
// mean ablation is ablated once, bit for bit as listed once (a second mean of the first's constant is
// not that constant in float64 sums).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { ablationProbe, together } from '../../../../src/core/model-analysis/interventions.js';
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

test('a mean ablation takes each head\'s mean in the ablated run itself: a later layer\'s mean is of outputs the earlier ablation changed', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 3);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  const c = m.config, D = c.headDim, Z = c.heads * D, n = IDS.length;
  const early = { layer: 0, head: 1 }, late = { layer: 1, head: 2 };
  /** Head `late`'s outputs at layer 2 as the run's probes leave them (`after`: once the ablation has rewritten them). */
  const lateOutputs = (heads: { layer: number; head: number }[], after: boolean) => {
    let seen: Float64Array | undefined;
    const look = { headOutputs: (l: number, z: { data: Float64Array | Float32Array }) => { if (l === late.layer) seen = Float64Array.from(z.data); } };
    const ablate = ablationProbe(heads, 'mean', D);
    forward(c, m.names, m.weights, IDS, { precision: 'f64', probe: together(after ? [ablate, look] : [look, ablate]) });
    return Array.from({ length: n }, (_, i) => Array.from(seen!.subarray(i * Z + late.head * D, i * Z + late.head * D + D)));
  };
  const mean = (rows: number[][]) => rows[0].map((_, d) => rows.reduce((s, r) => s + r[d], 0) / rows.length);
  const replaced = lateOutputs([early, late], true);
  // Every position holds the mean of the outputs of the run in which the early head is already ablated…
  const want = mean(lateOutputs([early], false));
  for (const row of replaced) assert.deepEqual(row, want);
  // …which is not the mean of the plain run's outputs.
  assert.notDeepEqual(want, mean(lateOutputs([], false)));
});
