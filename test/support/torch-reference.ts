// A family's float64 PyTorch reference (test/reference/families/<family>.py, Debian's python3-torch, no
// transformers library) as the tests use it: generate its tiny checkpoints into a folder, run its
// forward on ids, and measure how far our forward pass is from it: every layer's and head's attention
// weight in float64 (the pass's own recording, not the float32 copies a run keeps), and the five most
// likely next tokens' probabilities. Without torch a test fails (it never skips).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forward } from '../../src/core/checkpoint/forward.js';
import { loadModel, topNext, type LoadedModel } from '../../src/core/checkpoint/model.js';
import { readModelFolder } from '../../src/core/checkpoint-files/model-folder.js';
import type { HeadLens } from '../../src/core/checkpoint/types.js';
import type { Precision } from '../../src/core/checkpoint/precision.js';
import { lensSpec } from '../../src/core/checkpoint-spec/lens-spec.js';
import { folderFiles } from '../../src/core/files/spec-files.js';
import { analyze } from '../../src/core/index.js';
import { writeSafetensors } from '../../src/core/tensors/safetensors-write.js';
import { ROOT } from './paths.js';
import { tempDir } from './temp-dir.js';

export const PYTHON = '/usr/bin/python3';

/** The reference script of a family module (test/reference/families/NAME.py). */
export const referenceScript = (name: string) => join(ROOT, 'test', 'reference', 'families', `${name}.py`);

export function python(script: string, ...args: string[]): string {
  const r = spawnSync(PYTHON, [script, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${script} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** The script's cases, written into a new temporary folder: { root, cases }. */
export function generated(script: string): { root: string; cases: string[] } {
  const probe = spawnSync(PYTHON, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `this test needs PyTorch and numpy for ${PYTHON} (Debian's python3-torch and python3-numpy): ${probe.error?.message ?? probe.stderr}`);
  const root = tempDir('attn-ref-');
  return { root, cases: JSON.parse(python(script, 'generate', root)) as string[] };
}

export interface ReferenceRun {
  /** [layer][head][query][key]. */
  attention: number[][][][];
  /** [vocab]: the next token's softmax at the last position. */
  probs: number[];
}

/** The reference's forward on each request, in one process. */
export function referenceRuns(script: string, requests: readonly { dir: string; ids: readonly number[] }[]): ReferenceRun[] {
  const file = join(tempDir('attn-req-'), 'request.json');
  writeFileSync(file, JSON.stringify(requests));
  return JSON.parse(python(script, 'forward', file)) as ReferenceRun[];
}

/** A folder loaded as `attn run` loads it (in float64, the reference's precision, unless asked otherwise). */
export function loadFolder(dir: string, precision: Precision = 'f64'): LoadedModel {
  const folder = readModelFolder(dir);
  return loadModel(folder.configText, folder.tensors, { precision, where: folder.where });
}

/** A folder's config.json, parsed. */
export const configOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;

/** The largest difference between our float64 attention weights (every layer, head, query and key, the pass's own recording) and `attention`'s. */
export function weightDistance(m: LoadedModel, ids: readonly number[], attention: number[][][][]): number {
  const c = m.config, n = ids.length;
  assert.equal(attention.length, c.layers);
  let weight = 0;
  for (let layer = 0; layer < c.layers; layer++) {
    const exact = forward(c, m.names, m.weights, ids, { precision: m.precision, capture: { layer, stop: true } }).captured!.weights;
    assert.equal(attention[layer].length, c.heads);
    for (let h = 0; h < c.heads; h++) {
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) weight = Math.max(weight, Math.abs(exact[h * n * n + i * n + j] - attention[layer][h][i][j]));
    }
  }
  return weight;
}

/**
 * The largest difference between our float64 attention weights and the reference's (weightDistance),
 * and between our five most likely next tokens' probabilities and the reference's for the same ids,
 * which must also be the reference's five most likely in order.
 */
export function distance(m: LoadedModel, ids: readonly number[], ref: ReferenceRun): { weight: number; p: number } {
  const weight = weightDistance(m, ids, ref.attention);
  const next = topNext(forward(m.config, m.names, m.weights, ids, { precision: m.precision }).logits, 5, String);
  const order = ref.probs.map((p, id) => ({ p, id })).sort((a, b) => b.p - a.p).slice(0, 5);
  let p = 0;
  next.forEach((t, i) => {
    p = Math.max(p, Math.abs(t.p - ref.probs[t.id]), Math.abs(t.p - order[i].p));
  });
  return { weight, p };
}

/** What `attn run --json` prints, the parts compared here. */
export interface RunJson {
  model: Record<string, unknown>;
  ids: number[];
  attention: number[][][][];
  next: { id: number; token: string; p: number }[];
}

/** The largest difference between a run's printed (float32) weights and next tokens and the reference's. */
export function printedDistance(run: RunJson, ref: ReferenceRun): { weight: number; p: number } {
  let weight = 0;
  assert.equal(run.attention.length, ref.attention.length);
  run.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((w, j) => {
    weight = Math.max(weight, Math.abs(w - ref.attention[l][h][i][j]));
  }))));
  const order = ref.probs.map((p, id) => ({ p, id })).sort((a, b) => b.p - a.p).slice(0, 5);
  let p = 0;
  assert.equal(run.next.length, 5);
  run.next.forEach((t, i) => { p = Math.max(p, Math.abs(t.p - ref.probs[t.id]), Math.abs(t.p - order[i].p)); });
  return { weight, p };
}

/** A lens's spec written beside its tensor file, read back and computed by the core: the spec and its one head's weights (rows × n). */
export function computedLens(lens: HeadLens, stem: string): { description: string; weights: Float64Array } {
  const dir = tempDir('attn-lens-');
  const { spec, tensors } = lensSpec(lens, { tensorFile: `${stem}.safetensors`, model: 'tiny' });
  writeFileSync(join(dir, `${stem}.safetensors`), writeSafetensors(tensors));
  const a = analyze(JSON.stringify(spec), { files: folderFiles(dir) });
  assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), [], 'the spec reads without errors');
  return { description: String(spec.description), weights: a.result!.inputs[0].heads[0].weights.data };
}
