// The float64 (or float32) PyTorch reference of the phi3 and gpt_neox families
// (test/reference/families/phi_neox.py, Debian's python3-torch, no transformers library) run on the
// tiny in-memory checkpoints of tiny-checkpoint.ts, written to a folder first; the comparison is
// torch-reference.ts's (every float64 weight, the five most likely next tokens' probabilities).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TensorRef } from '../../src/core/tensors/attention-file.js';
import { loadModel } from '../../src/core/checkpoint/model.js';
import { writeCheckpoint } from './tiny-checkpoint.js';
import { ROOT } from './paths.js';
import { tempDir } from './temp-dir.js';
import { distance, python, type ReferenceRun } from './torch-reference.js';

export const FAMILY_SCRIPT = join(ROOT, 'test', 'reference', 'families', 'phi_neox.py');

/** Runs the script's `command` with `args`; fails the test with its stderr when it fails (never skips). */
export const familyScript = (...args: string[]): string => python(FAMILY_SCRIPT, ...args);

/** The reference's attention and probabilities for each checkpoint and ids, in `dtype`. */
export function reference(runs: { checkpoint: { configText: string; tensors: Map<string, TensorRef> }; ids: readonly number[] }[], dtype: 'float64' | 'float32'): ReferenceRun[] {
  const root = tempDir('attn-family-');
  const request = runs.map((r, i) => ({ dir: writeCheckpoint(join(root, String(i)), r.checkpoint.configText, r.checkpoint.tensors), ids: r.ids, dtype }));
  writeFileSync(join(root, 'request.json'), JSON.stringify(request));
  return JSON.parse(familyScript('forward', join(root, 'request.json'))) as ReferenceRun[];
}

/** An in-memory checkpoint's run against `want`: torch-reference.ts's distance. */
export function differences(checkpoint: { configText: string; tensors: Map<string, TensorRef> }, ids: readonly number[], want: ReferenceRun): { weight: number; p: number } {
  return distance(loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f64' }), ids, want);
}
