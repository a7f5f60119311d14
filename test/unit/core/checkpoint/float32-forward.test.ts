// The float32 forward (the default precision, precision.ts) against the same PyTorch references the
// float64 forward is held to (torch_forward.py's, and the float64 family references at 1e-9): GPT-2 (learned positions, Conv1D, fused q/k/v),
// a Llama with grouped-query RoPE and SwiGLU stored in BF16, Gemma (offset RMSNorm, GeGLU, √d-scaled
// embeddings) and Gemma 2 (its attention and final softcaps, a sliding window), and BERT (every key
// seen, post norms, an MLM head). The tolerance: float32 carries 24 bits (relative 6e-8 a step); a
// layer's products sum up to a few hundred terms, so its outputs are good to ~1e-6 relative, and
// through a few layers and a softmax an attention weight (in [0, 1]) and a probability stay well
// within 1e-4 absolute, while a wrong dtype, layout or scale moves them by 1e-2 or more. The logits
// are held against the float64 forward's own within 1e-4 of their largest magnitude.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { configOf, distance, generated, loadFolder, referenceRuns, referenceScript } from '../../../support/torch-reference.js';
import { agreesWith, reference, writeCheckpoint } from '../../../support/encoder-reference.js';
import { tempDir } from '../../../support/temp-dir.js';
import { BERT_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { ROOT } from '../../../support/paths.js';

const TORCH = join(ROOT, 'test', 'reference', 'torch_forward.py');
const GEMMA = referenceScript('gemma');
const IDS = [1, 17, 5, 5, 39, 0, 12, 8, 3, 21, 30, 2];
let torchRoot = '', gemmaRoot = '';

before(() => {
  torchRoot = generated(TORCH).root;
  gemmaRoot = generated(GEMMA).root;
});

/** The f32 logits against the f64 forward's: the largest difference over the largest magnitude. */
function logitsOff(dir: string, ids: readonly number[]): number {
  const runs = (['f32', 'f64'] as const).map((p) => {
    const m = loadFolder(dir, p);
    return forward(m.config, m.names, m.weights, ids, { precision: p }).logits;
  });
  let off = 0, scale = 0;
  runs[1].forEach((v, i) => { off = Math.max(off, Math.abs(runs[0][i] - v)); scale = Math.max(scale, Math.abs(v)); });
  return off / scale;
}

for (const [script, name] of [[TORCH, 'gpt2-plain'], [TORCH, 'llama-gqa'], [TORCH, 'qwen2'], [GEMMA, 'gemma-2b'], [GEMMA, 'gemma-2-2b']] as const) {
  test(`${name} in float32: every weight and the top five p within 1e-4 of the float64 reference, the logits within 1e-4 of float64's`, () => {
    const dir = join(script === TORCH ? torchRoot : gemmaRoot, name);
    const vocab = Number(configOf(dir).vocab_size);
    const ids = IDS.map((id) => id % vocab);
    const [ref] = referenceRuns(script, [{ dir, ids }]);
    const f32 = distance(loadFolder(dir, 'f32'), ids, ref);
    assert.ok(f32.weight < 1e-4 && f32.p < 1e-4, `${name}: ${JSON.stringify(f32)}`);
    // Float32 is float32: not the float64 run's numbers (a test that cannot tell them apart tests nothing).
    const off = logitsOff(dir, ids);
    assert.ok(off < 1e-4 && off > 0, `${name}: logits off by ${off} of their scale`);
  });
}

test('bert in float32: every weight and the five guesses at each [MASK] within 1e-4 of the float64 reference', () => {
  const scratch = tempDir('attn-bert32-');
  const ids = [2, 17, 5, 4, 39, 0, 12, 4, 3], at = [3, 7];
  const checkpoints = [1, 2].map((seed) => tinyCheckpoint(BERT_CONFIG, seed));
  const dirs = checkpoints.map((k, i) => writeCheckpoint(join(scratch, `bert-${i}`), k));
  const want = reference(dirs.map((dir) => ({ dir, ids, at })), scratch);
  checkpoints.forEach((k, i) => {
    const off = agreesWith(k, ids, at, want[i], 1e-4, 'f32');
    assert.ok(off.weights > 1e-12, `a float32 run the same as float64's: ${JSON.stringify(off)}`);
  });
});
