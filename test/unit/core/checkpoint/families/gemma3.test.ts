// Gemma 3's multimodal checkpoints (src/core/checkpoint/families/gemma3.ts), whose text model attn
// runs: text_config read as the text model's config, absent keys taking Gemma3TextConfig's defaults
// (the published text_config of gemma-3-4b gives six keys); the language model's tensors found under
// language_model.model. or model.language_model., the vision tower's and the projector's left
// unread; and, on a tiny checkpoint with gemma-3-4b-pt's published keys, every layer's and head's
// weight and the next tokens against the float64 PyTorch reference to 1e-9, `attn run` to 1e-4, and
// the lens on a head.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gemma3 } from '../../../../../src/core/checkpoint/families/gemma3.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { attn } from '../../../../support/cli.js';
import { configOf, distance, generated, loadFolder, printedDistance, referenceRuns, referenceScript, type RunJson } from '../../../../support/torch-reference.js';

const SCRIPT = referenceScript('gemma');
const TEXT = 'the cat sat on the mat. the cat ate the rat';
let root = '';
let base: Record<string, unknown> = {};

before(() => {
  root = generated(SCRIPT).root;
  base = configOf(join(root, 'gemma-3-4b-pt'));
});

const read = (text: object | undefined) => readModelConfig(JSON.stringify({ ...base, text_config: text }));

test('text_config read as the text model\'s, absent keys taking its defaults; what is not an object or not that model refused by key', () => {
  const c = readModelConfig(JSON.stringify(base));
  assert.deepEqual([c.type, c.heads, c.kvHeads, c.headDim, c.dModel, c.vocab, c.contextLength, c.scoreDivisor, c.tied], ['gemma3', 8, 4, 8, 24, 300, 131072, 16, true]);
  assert.deepEqual([c.layerRope![0], c.layerRope![5], c.layerAttention![5], c.layerAttention![6]], [{ theta: 10000 }, { theta: 1000000, linear: 8 }, { kind: 'causal' }, { kind: 'sliding', window: 4 }]);
  assert.equal(gemma3.block.qkNorm, true);
  // Nothing given: the text model as the config class builds it.
  assert.deepEqual([read(undefined).dModel, read(undefined).layers, read(undefined).vocab], [2304, 26, 262208]);
  assert.throws(() => read([1]), /^ModelError: config\.json: "text_config" must be an object \(the text model's config\), got \[1\]$/);
  assert.throws(() => read({ ...base.text_config as object, model_type: 'llama' }), /^ModelError: config\.json: "text_config"'s model_type "llama" is not supported/);
  assert.throws(() => read({ ...base.text_config as object, attn_logit_softcapping: 50 }), /^ModelError: config\.json: "text_config": "attn_logit_softcapping": 50 is not supported/);
  assert.throws(() => read({ ...base.text_config as object, head_dim: 0 }), /^ModelError: config\.json: "text_config": "head_dim" must be a whole number/);
  const c0 = readModelConfig(JSON.stringify(base));
  assert.equal(gemma3.tensors(c0, () => false, gemma3.block).names.embed, 'language_model.model.embed_tokens.weight');
  assert.equal(gemma3.tensors(c0, (n) => n === 'model.language_model.embed_tokens.weight', gemma3.block).names.layers[3].kNorm, 'model.language_model.layers.3.self_attn.k_norm.weight');
  assert.equal(gemma3.tensors({ ...c0, tied: false }, () => false, gemma3.block).names.head, 'language_model.lm_head.weight');
});

test('gemma-3-4b-pt\'s keys, a text longer than the window: every weight and the next tokens\' p as the float64 reference computes them (1e-9); attn run (1e-4)', async () => {
  const dir = join(root, 'gemma-3-4b-pt');
  const r = await attn('run', dir, '--text', TEXT, '--json');
  assert.equal(r.code, 0, r.err);
  const run = JSON.parse(r.out) as RunJson;
  assert.deepEqual(run.model, { type: 'gemma3', layers: 7, heads: 8, kvHeads: 4, dModel: 24, headDim: 8, vocab: 300, precision: 'f32' });
  assert.ok(run.ids.length >= 12);
  const [ref] = referenceRuns(SCRIPT, [{ dir, ids: run.ids }]);
  const exact = distance(loadFolder(dir), run.ids, ref);
  assert.ok(exact.weight < 1e-9 && exact.p < 1e-9, JSON.stringify(exact));
  const printed = printedDistance(run, ref);
  assert.ok(printed.weight < 1e-4 && printed.p < 1e-4, JSON.stringify(printed));
});

test('the lens on a gemma3 head: its key/value head, the window of its layer, the run\'s weights', () => {
  const m = loadFolder(join(root, 'gemma-3-4b-pt'));
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3];
  const run = forward(m.config, m.names, m.weights, ids, { precision: 'f64' });
  const n = ids.length;
  const lens = headLens(m, ids, ids.map(String), 4, 7);
  assert.deepEqual([lens.kvHead, lens.window, lens.scale], [3, 4, 16]);
  for (let i = 0; i < n * n; i++) assert.equal(Math.fround(lens.weights[i]), run.attention[4][7 * n * n + i]);
});
