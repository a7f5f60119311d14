// The encoders' checks against the float64 PyTorch reference (test/reference/families/bert.py): a
// tiny checkpoint written as a model folder, run by our forward pass (every layer captured in
// float64, the MLM head's logits at the asked positions) and by the reference, compared weight by
// weight and on the five most likely tokens at each asked position.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { TensorRef } from '../../src/core/tensors/attention-file.js';
import { forward } from '../../src/core/checkpoint/forward.js';
import { loadModel, topNext } from '../../src/core/checkpoint/model.js';
import type { Precision } from '../../src/core/checkpoint/precision.js';
import { ROOT } from './paths.js';
import { writeCheckpoint as writeFolder } from './tiny-checkpoint.js';
import { PYTHON, weightDistance } from './torch-reference.js';

const SCRIPT = join(ROOT, 'test', 'reference', 'families', 'bert.py');

export interface Reference {
  attention: number[][][][];
  guesses: number[][] | null;
}

/** Writes config.json and model.safetensors into `dir` (tiny-checkpoint.ts's writeCheckpoint). */
export function writeCheckpoint(dir: string, checkpoint: { configText: string; tensors: Map<string, TensorRef> }): string {
  return writeFolder(dir, checkpoint.configText, checkpoint.tensors);
}

/** The reference's run of each request (one Python process for all of them). */
export function reference(requests: { dir: string; ids: number[]; at?: number[] }[], scratch: string): Reference[] {
  const file = join(scratch, `request-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(requests));
  const r = spawnSync(PYTHON, [SCRIPT, 'forward', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${SCRIPT} failed (it needs PyTorch and numpy): ${r.error?.message ?? r.stderr}`);
  return JSON.parse(r.stdout) as Reference[];
}

/**
 * Our run of the checkpoint (in float64 unless asked) against the reference's: every layer's and head's weight within
 * `tolerance`, and at each asked position the five most likely tokens, in order, with their
 * probabilities within `tolerance`. Returns the worst differences seen (weights, probabilities).
 */
export function agreesWith(checkpoint: { configText: string; tensors: Map<string, TensorRef> }, ids: number[], at: number[], want: Reference, tolerance: number, precision: Precision = 'f64'): { weights: number; probs: number } {
  const m = loadModel(checkpoint.configText, checkpoint.tensors, { precision });
  const c = m.config;
  const worstWeight = weightDistance(m, ids, want.attention);
  let worstP = 0;
  assert.ok(worstWeight < tolerance, `an attention weight differs from the reference's by ${worstWeight}`);
  const out = forward(c, m.names, m.weights, ids, { precision });
  assert.ok(want.guesses, 'the reference found the MLM head');
  at.forEach((position, k) => {
    const ours = topNext(out.logitsAt!(position), 5, String);
    const theirs = want.guesses![k].map((p, id) => ({ id, p })).sort((a, b) => b.p - a.p || a.id - b.id).slice(0, 5);
    ours.forEach((t, r) => {
      assert.equal(t.id, theirs[r].id, `position ${position}: guess ${r + 1}`);
      worstP = Math.max(worstP, Math.abs(t.p - theirs[r].p));
    });
  });
  assert.ok(worstP < tolerance, `a guess's probability differs from the reference's by ${worstP}`);
  return { weights: worstWeight, probs: worstP };
}

/** Every head of every layer puts weight above the diagonal (a key after its query): the attention is not causal. */
export function assertBidirectional(attention: Float32Array[], heads: number, n: number): void {
  attention.forEach((layer, l) => {
    for (let h = 0; h < heads; h++) {
      let above = 0;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) above += layer[h * n * n + i * n + j];
      assert.ok(above > 0.1 * n, `layer ${l} head ${h}: only ${above} of the weight lies above the diagonal`);
    }
  });
}
