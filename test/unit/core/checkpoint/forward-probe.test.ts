// The forward pass's options for the analyses (forward.ts: probe, start, keepAttention) combined with
// its reuse of a kept run: what a run keeps is always a plain run's, a kept run without attention is
// never joined into a run that shows attention, and a run started at a layer gives the bits a whole
// run gives in float32 as in float64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel, type LoadedModel } from '../../../../src/core/checkpoint/model.js';
import type { Precision } from '../../../../src/core/checkpoint/precision.js';
import { ModelError } from '../../../../src/core/checkpoint/error.js';
import { keeper } from '../../../../src/core/model-analysis/interventions.js';
import { GPT2_CONFIG, PHI3_MINI_4K_CONFIG, PYTHIA_70M_CONFIG, QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { generated, loadFolder, referenceScript } from '../../../support/torch-reference.js';

const IDS = [1, 17, 5, 5, 39, 0, 12, 8, 3, 21];

function model(config: object) {
  const { configText, tensors } = tinyCheckpoint(config, 7);
  return loadModel(configText, tensors);
}

test('a run with a probe or a start layer keeps nothing for a later run to reuse (its keys are not a plain run\'s)', () => {
  const m = model(QWEN3_CONFIG);
  const c = m.config;
  const inputs = keeper('layerInput');
  const probed = forward(c, m.names, m.weights, IDS, { keep: true, probe: inputs.probe });
  assert.equal(probed.kept, undefined);
  const started = forward(c, m.names, m.weights, IDS, { keep: true, start: { layer: 1, residual: inputs.kept[1] } });
  assert.equal(started.kept, undefined);
  assert.ok(forward(c, m.names, m.weights, IDS, { keep: true }).kept, 'a plain run keeps');
});

test('a kept run without attention is not joined into a run that shows attention: the rows are a plain run\'s, not zeros', () => {
  for (const config of [GPT2_CONFIG, QWEN3_CONFIG]) {
    const m = model(config);
    const c = m.config;
    const first = forward(c, m.names, m.weights, IDS.slice(0, 6), { keep: true, keepAttention: false });
    assert.ok(first.kept && first.kept.attention.every((a) => a.length === 0));
    const plain = forward(c, m.names, m.weights, IDS);
    const reusing = forward(c, m.names, m.weights, IDS, { reuse: first.kept });
    assert.deepEqual(reusing.attention, plain.attention);
    assert.deepEqual(reusing.logits, plain.logits);
    // A run that keeps no attention either reuses it, and its logits are the plain run's bits.
    const lean = forward(c, m.names, m.weights, IDS, { reuse: first.kept, keepAttention: false });
    assert.equal(lean.reused, 6);
    assert.ok(lean.attention.every((a) => a.length === 0));
    assert.deepEqual(lean.logits, plain.logits);
  }
});

/** Every layer a run can start at, from the whole run's kept residual stream: the same logits and later attention, bit for bit. */
function startsLikeWhole(m: LoadedModel, precision: Precision, what: string) {
  const c = m.config;
  const inputs = keeper('layerInput');
  const whole = forward(c, m.names, m.weights, IDS, { precision, probe: inputs.probe });
  for (let layer = 0; layer <= c.layers; layer++) {
    const started = forward(c, m.names, m.weights, IDS, { precision, start: { layer, residual: inputs.kept[layer] } });
    assert.deepEqual(started.logits, whole.logits, `${what} ${precision} from layer ${layer}`);
    for (let l = layer; l < c.layers; l++) assert.deepEqual(started.attention[l], whole.attention[l]);
    for (let l = 0; l < layer; l++) assert.equal(started.attention[l].length, 0);
  }
}

test('a run started at a layer gives a whole run\'s bits, in float32 and float64: Conv1D, grouped heads, a parallel block, fused projections', () => {
  for (const precision of ['f32', 'f64'] as const) {
    for (const config of [GPT2_CONFIG, QWEN3_CONFIG, PYTHIA_70M_CONFIG, PHI3_MINI_4K_CONFIG]) {
      const { configText, tensors } = tinyCheckpoint(config, 7);
      startsLikeWhole(loadModel(configText, tensors), precision, JSON.stringify(config).slice(0, 30));
    }
  }
});

test('Gemma 2 and 3 (sandwich norms, alternating sliding layers, a final softcap): a run started at a layer gives a whole run\'s bits', () => {
  const { root, cases } = generated(referenceScript('gemma'));
  assert.ok(cases.length > 0);
  for (const name of cases) for (const precision of ['f32', 'f64'] as const) startsLikeWhole(loadFolder(`${root}/${name}`, precision), precision, name);
});

test('a run started after the layer it is asked to capture says so', () => {
  const m = model(GPT2_CONFIG);
  const inputs = keeper('layerInput');
  forward(m.config, m.names, m.weights, IDS, { probe: inputs.probe });
  assert.throws(() => forward(m.config, m.names, m.weights, IDS, { capture: { layer: 0 }, start: { layer: 1, residual: inputs.kept[1] } }),
    (e: Error) => e instanceof ModelError && /started at layer 2 cannot capture layer 1/.test(e.message));
});
