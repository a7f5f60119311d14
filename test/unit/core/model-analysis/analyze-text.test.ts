// The analyses beyond the pattern (src/core/model-analysis/analyze-text.ts) held to what they must be
// by construction, on small random checkpoints of several families (GPT-2's Conv1D and LayerNorm,
// Qwen3's grouped-query heads and q/k norms, Pythia's parallel block, Phi-3's fused projections):
// the attribution's parts add up to the logit difference the run itself computes; ablating no head
// changes nothing; a run started at a layer gives the bits a whole run gives; patching the only
// head of a one-layer model restores the clean run (1); generated tokens are the greedy ones and
// the run's attention is a plain run's over prompt + generated; the logit lens after the last
// layer is the run's own prediction. The PyTorch reference of every number is
// test/unit/cli/model/run-analyses*.test.ts's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel, runText, topNext } from '../../../../src/core/checkpoint/model.js';
import type { Precision } from '../../../../src/core/checkpoint/precision.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import { ablationProbe, keeper, patchProbe } from '../../../../src/core/model-analysis/interventions.js';
import { generated, loadFolder, referenceScript } from '../../../support/torch-reference.js';
import type { ModelConfig } from '../../../../src/core/checkpoint/config.js';
import { argmax } from '../../../../src/core/model-analysis/generation.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { seeded } from '../../../support/random.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { GPT2_CONFIG, PHI3_MINI_4K_CONFIG, PYTHIA_70M_CONFIG, QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const FAMILIES = { gpt2: GPT2_CONFIG, qwen3: QWEN3_CONFIG, pythia: PYTHIA_70M_CONFIG, phi3: PHI3_MINI_4K_CONFIG };
const TEXT = '1 17 5 5 39 0 12 8 3 21 30 2';
const IDS = TEXT.split(' ').map(Number);

function model(config: object, precision: Precision, seed = 3) {
  const { configText, tensors } = tinyCheckpoint(config, seed);
  return loadModel(configText, tensors, { precision });
}

for (const [family, config] of Object.entries(FAMILIES)) {
  test(`${family}: the attribution's parts add up to the run's own logit difference (1e-9 in float64, 1e-4 in float32)`, () => {
    for (const precision of ['f64', 'f32'] as const) {
      const m = model(config, precision);
      const r = analyzeText(m, idsTokenizer(40), TEXT, { target: '7', contrast: '11' });
      const a = r.analyses.attribution!;
      assert.equal(a.target, 7);
      assert.equal(a.contrast, 11);
      let sum = a.embed + a.normBias + (a.headBias ?? 0);
      for (let l = 0; l < a.heads.length; l++) sum += a.heads[l].reduce((s, v) => s + v, 0) + a.attentionBias[l] + a.mlps[l];
      assert.ok(Math.abs(sum - a.total) < 1e-12 * Math.max(1, Math.abs(a.total)), `${precision}: the parts sum to ${sum}, total ${a.total}`);
      const logits = forward(m.config, m.names, m.weights, IDS, { precision }).logits;
      const diff = logits[7] - logits[11];
      assert.ok(Math.abs(a.total - diff) < (precision === 'f64' ? 1e-9 : 1e-4), `${precision}: total ${a.total}, the run's difference ${diff}`);
      // Every part says something: the heads are not all zero.
      assert.ok(a.heads.flat().some((v) => Math.abs(v) > 1e-6));
      assert.equal(a.heads.length, m.config.layers);
      assert.equal(a.heads[0].length, m.config.heads);
    }
  });

  test(`${family}: ablating no head changes nothing; a zero-ablated run started at its layer equals one from the start, bit for bit`, () => {
    const m = model(config, 'f64');
    const none = analyzeText(m, idsTokenizer(40), TEXT, { ablate: { heads: [], labels: [], mode: 'zero' } });
    assert.equal(none.analyses.ablation!.logitDiff, none.analyses.ablation!.baseLogitDiff);
    assert.deepEqual(none.analyses.ablation!.next, none.next);
    const heads = [{ layer: 1, head: 1 }];
    for (const mode of ['zero', 'mean'] as const) {
      const r = analyzeText(m, idsTokenizer(40), TEXT, { ablate: { heads, labels: ['2.2'], mode } });
      const whole = forward(m.config, m.names, m.weights, IDS, { precision: 'f64', probe: ablationProbe(heads, mode, m.config.headDim) });
      assert.equal(r.analyses.ablation!.next[0].id, argmax(whole.logits));
      assert.equal(r.analyses.ablation!.logitDiff, whole.logits[r.analyses.ablation!.target], mode);
      assert.notEqual(r.analyses.ablation!.logitDiff, r.analyses.ablation!.baseLogitDiff, `${mode}: ablating a head changes the logit`);
      assert.deepEqual(r.analyses.ablatedAttention![1], whole.attention[1]);
      assert.deepEqual(r.analyses.ablatedAttention![0], none.attention[0], 'the layer before the ablated one is the run\'s');
      assert.deepEqual(r.analyses.ablation!.heads, ['2.2']);
    }
  });

  test(`${family}: generation appends the greedy tokens, and the run is a plain run of prompt + generated`, () => {
    for (const precision of ['f64', 'f32'] as const) {
      const m = model(config, precision);
      const r = analyzeText(m, idsTokenizer(40), TEXT, { generate: 4 });
      assert.equal(r.analyses.generated!.length, 4);
      assert.deepEqual(r.ids, [...IDS, ...r.analyses.generated!.map((g) => g.id)]);
      assert.deepEqual(r.tokens.slice(IDS.length), r.analyses.generated!.map((g) => g.token));
      for (let k = 0; k < 4; k++) {
        const prefix = r.ids.slice(0, IDS.length + k);
        assert.equal(r.ids[IDS.length + k], argmax(forward(m.config, m.names, m.weights, prefix, { precision }).logits), `${precision}: step ${k} is greedy`);
      }
      const plain = forward(m.config, m.names, m.weights, r.ids, { precision });
      assert.deepEqual(r.attention, plain.attention);
      assert.deepEqual(r.next.map((t) => t.id), topNext(plain.logits, 5, String).map((t) => t.id));
    }
  });

  test(`${family}: the logit lens after the last layer is the run's own prediction; one entry per layer and position`, () => {
    for (const precision of ['f64', 'f32'] as const) {
      const m = model(config, precision);
      const r = analyzeText(m, idsTokenizer(40), TEXT, { logitLens: true });
      const lens = r.analyses.logitLens!;
      assert.equal(lens.length, m.config.layers);
      assert.ok(lens.every((layer) => layer.length === IDS.length && layer.every((top) => top.length === 5)));
      assert.deepEqual(lens[lens.length - 1][IDS.length - 1], r.next);
      // Each position's top five after the last layer is that position's own run's prediction.
      const third = forward(m.config, m.names, m.weights, IDS.slice(0, 3), { precision }).logits;
      assert.deepEqual(lens[lens.length - 1][2].map((t) => t.id), topNext(third, 5, String).map((t) => t.id));
    }
  });
}

test('patching the only head of a one-layer model restores the clean run: 1 within 1e-9', () => {
  const m = model({ ...GPT2_CONFIG, n_layer: 1, n_head: 1 }, 'f64', 5);
  const r = analyzeText(m, idsTokenizer(40), TEXT, { target: '7', contrast: '11', patchFrom: `9 ${TEXT.split(' ').slice(1).join(' ')}` });
  assert.equal(r.analyses.patching!.length, 1);
  assert.ok(Math.abs(r.analyses.patching![0][0] - 1) < 1e-9, String(r.analyses.patching![0][0]));
});

test('patching a head of a two-layer model: a score per layer and head, the same as a whole patched run\'s', () => {
  const m = model(GPT2_CONFIG, 'f64', 5);
  const corrupted = `9 ${TEXT.split(' ').slice(1).join(' ')}`;
  const r = analyzeText(m, idsTokenizer(40), TEXT, { target: '7', contrast: '11', patchFrom: corrupted });
  assert.equal(r.analyses.patching!.length, 2);
  assert.ok(r.analyses.patching!.every((row) => row.length === 4 && row.every(Number.isFinite)));
  assert.ok(r.analyses.patching!.flat().some((v) => Math.abs(v) > 1e-3));
  // Head 1.3 patched in a run from the first layer, scored by hand: the same bits as the started run's.
  const ids2 = corrupted.split(' ').map(Number);
  const clean = keeper('headOutputs');
  const cleanRun = forward(m.config, m.names, m.weights, IDS, { precision: 'f64', probe: clean.probe });
  const corruptRun = forward(m.config, m.names, m.weights, ids2, { precision: 'f64' });
  const patched = forward(m.config, m.names, m.weights, ids2, { precision: 'f64', probe: patchProbe(0, 2, m.config.headDim, clean.kept[0]) });
  const d = (l: Float64Array) => l[7] - l[11];
  assert.equal(r.analyses.patching![0][2], (d(patched.logits) - d(corruptRun.logits)) / (d(cleanRun.logits) - d(corruptRun.logits)));
});

test('Gemma 2 and 3 (sandwich norms, √d-scaled embeddings, offset RMSNorm, Gemma 2\'s final softcap): the parts add up to the difference before the cap', () => {
  const { root, cases } = generated(referenceScript('gemma'));
  for (const name of cases.filter((c) => c !== 'gemma-3-4b-pt')) {
    const m = loadFolder(`${root}/${name}`, 'f64');
    const c: ModelConfig = m.config;
    const r = analyzeText(m, idsTokenizer(c.vocab), TEXT, { target: '7', contrast: '11' });
    const a = r.analyses.attribution!;
    let sum = a.embed + a.normBias + (a.headBias ?? 0);
    for (let l = 0; l < a.heads.length; l++) sum += a.heads[l].reduce((s, v) => s + v, 0) + a.attentionBias[l] + a.mlps[l];
    assert.ok(Math.abs(sum - a.total) < 1e-12 * Math.max(1, Math.abs(a.total)), name);
    const logits = forward(c, m.names, m.weights, IDS, { precision: 'f64' }).logits;
    const cap = c.softcap?.final;
    const uncapped = (v: number) => (cap === undefined ? v : cap * Math.atanh(v / cap));
    const diff = uncapped(logits[7]) - uncapped(logits[11]);
    assert.ok(Math.abs(a.total - diff) < 1e-9, `${name}: total ${a.total}, the run's ${diff}`);
  }
});

test('a kept model\'s ablation toggles start from its last run: the same numbers as a fresh model\'s, a new text run afresh', () => {
  const { configText, tensors } = tinyCheckpoint(QWEN3_CONFIG, 6);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  const fresh = () => loadModel(configText, tensors, { precision: 'f64' });
  const tokenizer = idsTokenizer(40);
  const ablate = (heads: { layer: number; head: number }[]) => ({ ablate: { heads, labels: heads.map((h) => `${h.layer + 1}.${h.head + 1}`), mode: 'mean' as const }, target: '7' });
  // Layers computed: the first toggle runs both layers, then layer 2 ablated; the second toggle, only
  // its ablated layers (from layer 1); none to restore every head; a new text, both layers and its ablation.
  const computed = [2 + 1, 2, 0, 2 + 2];
  for (const [k, [text, heads]] of ([[TEXT, [{ layer: 1, head: 3 }]], [TEXT, [{ layer: 0, head: 2 }, { layer: 1, head: 3 }]], [TEXT, []], ['4 4 4 9 1', [{ layer: 0, head: 0 }]]] as const).entries()) {
    let layers = 0;
    const a = analyzeText(kept, tokenizer, text, ablate([...heads]), { onLayer: () => { layers++; } });
    assert.equal(layers, computed[k], `toggle ${k + 1}: layers computed`);
    const b = analyzeText(fresh(), tokenizer, text, ablate([...heads]));
    assert.deepEqual(a.analyses.ablation, b.analyses.ablation, `${text} ${JSON.stringify(heads)}`);
    assert.deepEqual(a.analyses.ablatedAttention, b.analyses.ablatedAttention);
    assert.deepEqual(a.analyses.attribution, b.analyses.attribution);
    assert.deepEqual(a.next, b.next);
  }
});

test('a kept model\'s toggles do not generate again; a plain run lets the kept base go', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 6);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  const tokenizer = idsTokenizer(40);
  const request = (head: number) => ({ generate: 3, ablate: { heads: [{ layer: 1, head }], labels: [`2.${head + 1}`], mode: 'zero' as const } });
  let layers = 0;
  const first = analyzeText(kept, tokenizer, TEXT, request(0), { onLayer: () => { layers++; } });
  assert.equal(layers, 3 * 2 + 2 + 1, 'three generation steps, the run, the ablated layer');
  layers = 0;
  const second = analyzeText(kept, tokenizer, TEXT, request(2), { onLayer: () => { layers++; } });
  assert.equal(layers, 1, 'only the ablated layer');
  assert.deepEqual(second.ids, first.ids);
  const fresh = analyzeText(loadModel(configText, tensors, { precision: 'f64' }), tokenizer, TEXT, request(2));
  assert.deepEqual(second.analyses.ablation, fresh.analyses.ablation);
  assert.ok(kept.analysisKept !== undefined);
  runText(kept, tokenizer, TEXT);
  assert.equal(kept.analysisKept, undefined);
});

test('weights stored in float64 are read as they are: the attribution adds up to the run\'s difference within 1e-9', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 8);
  // Every weight a float64 of full precision (rounded through float32 it would be ~6e-8 off).
  const rand = seeded(21);
  const total = [...tensors.values()].reduce((a, t) => a + t.shape.reduce((x, y) => x * y, 1), 0);
  const data = Float64Array.from({ length: total }, () => (rand() - 0.5) * 1.2 + rand() * 1e-9);
  const source = memorySource('model.safetensors', new Uint8Array(data.buffer));
  const wide = new Map<string, TensorRef>();
  let at = 0;
  for (const [name, t] of tensors) {
    wide.set(name, { name, dtype: 'F64', shape: t.shape, source, offset: at * 8 });
    at += t.shape.reduce((x, y) => x * y, 1);
  }
  const m = loadModel(configText, wide, { precision: 'f64' });
  const a = analyzeText(m, idsTokenizer(40), TEXT, { target: '7', contrast: '11' }).analyses.attribution!;
  const logits = forward(m.config, m.names, m.weights, IDS, { precision: 'f64' }).logits;
  assert.ok(Math.abs(a.total - (logits[7] - logits[11])) < 1e-9, `total ${a.total}, the run's ${logits[7] - logits[11]}`);
});
