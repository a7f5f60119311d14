// The float64 (or float32) PyTorch reference of the phi3 and gpt_neox families
// (test/reference/families/phi_neox.py, Debian's python3-torch, no transformers library) run on the
// tiny in-memory checkpoints of tiny-checkpoint.ts, written to a folder first; and the comparison
// the family tests make against it: every layer's and head's attention weight as the block computed
// it in float64 (the capture), and the five most likely next tokens' probabilities.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { TensorRef } from '../../src/core/tensors/attention-file.js';
import { forward } from '../../src/core/checkpoint/forward.js';
import { loadModel, topNext } from '../../src/core/checkpoint/model.js';
import { writeCheckpoint } from './tiny-checkpoint.js';
import { ROOT } from './paths.js';
import { tempDir } from './temp-dir.js';

export const PYTHON = '/usr/bin/python3';
export const FAMILY_SCRIPT = join(ROOT, 'test', 'reference', 'families', 'phi_neox.py');

export interface Reference { attention: number[][][][]; probs: number[] }

/** Runs the script's `command` with `args`; fails the test with its stderr when it fails (never skips). */
export function familyScript(...args: string[]): string {
  const r = spawnSync(PYTHON, [FAMILY_SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${FAMILY_SCRIPT} ${args.join(' ')} failed (it needs PyTorch and numpy: Debian's python3-torch and python3-numpy): ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** The reference's attention and probabilities for each checkpoint and ids, in `dtype`. */
export function reference(runs: { checkpoint: { configText: string; tensors: Map<string, TensorRef> }; ids: readonly number[] }[], dtype: 'float64' | 'float32'): Reference[] {
  const root = tempDir('attn-family-');
  const request = runs.map((r, i) => ({ dir: writeCheckpoint(join(root, String(i)), r.checkpoint.configText, r.checkpoint.tensors), ids: r.ids, dtype }));
  writeFileSync(join(root, 'request.json'), JSON.stringify(request));
  return JSON.parse(familyScript('forward', join(root, 'request.json'))) as Reference[];
}

/**
 * Our float64 weights (every layer, every head, from the capture) and top five against `want`: the
 * largest difference of each. Asserts the shapes agree.
 */
export function differences(checkpoint: { configText: string; tensors: Map<string, TensorRef> }, ids: readonly number[], want: Reference): { weights: number; probs: number } {
  const m = loadModel(checkpoint.configText, checkpoint.tensors);
  const c = m.config, n = ids.length;
  assert.equal(want.attention.length, c.layers);
  let weights = 0;
  for (let layer = 0; layer < c.layers; layer++) {
    const exact = forward(c, m.names, m.weights, ids, { capture: { layer, stop: true } }).captured!.weights;
    assert.equal(want.attention[layer].length, c.heads);
    for (let head = 0; head < c.heads; head++) {
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) weights = Math.max(weights, Math.abs(exact[head * n * n + i * n + j] - want.attention[layer][head][i][j]));
    }
  }
  const next = topNext(forward(c, m.names, m.weights, ids).logits, 5, String);
  const order = want.probs.map((p, id) => ({ p, id })).sort((a, b) => b.p - a.p).slice(0, 5);
  let probs = 0;
  next.forEach((t, i) => { probs = Math.max(probs, Math.abs(t.p - want.probs[t.id]), Math.abs(t.p - order[i].p)); });
  return { weights, probs };
}
