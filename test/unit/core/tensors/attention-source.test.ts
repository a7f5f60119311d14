// Attention held as typed arrays (src/core/tensors/attention-source.ts) reads as the same attention
// saved as a file and read back does, bit for bit: every head, every block of rows (views of the
// arrays, no copy), and the scanners' answers (pass, head, picture, window, rollout); a spec's F64
// heads (and a computed spec's input, result/input-attention.ts) as well as a run's F32 layers; a
// head or rows outside the shape are refused as a file's are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrayAttention, layersAttention } from '../../../../src/core/tensors/attention-source.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { attentionOf } from '../../../../src/core/files/open.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { headFloat32, headPicture, headWindow, passOverRange, rolloutOf, shapeOf } from '../../../../src/core/model-attention/scan.js';
import { randomAttention } from '../../../support/model-fixture.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSpec } from '../../../../src/core/spec/read.js';
import { attentionData } from '../../../../src/core/result/attention-data.js';
import { inputAttention } from '../../../../src/core/result/input-attention.js';
import { ROOT } from '../../../support/paths.js';

const L = 2, H = 3, N = 300; // past WHOLE_HEAD_MAX: the pass keeps pictures, pooled from 300 to 300
const TOKENS = Array.from({ length: N }, (_, i) => ['the', ' cat', ' sat', ' the'][i % 4]);
const hex = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

test('a run\'s float32 layers answer as the file of them does: shape, rows (views), head, pass, picture, window, rollout', () => {
  const values = randomAttention(L, H, N, 5);
  const layers = Array.from({ length: L }, (_, l) => values.subarray(l * H * N * N, (l + 1) * H * N * N));
  const run = layersAttention('the run', layers, H, N, TOKENS);
  const file = attentionOf(memorySource('the run', writeSafetensors([{ name: 'attention', dtype: 'F32', shape: [L, H, N, N], data: layers }], { tokens: JSON.stringify(TOKENS) })));
  assert.deepEqual(shapeOf(run), shapeOf(file));
  const rows = run.rowBytes(1, 2, 7, 5);
  assert.equal(rows.buffer, values.buffer, 'a view of the layer, not a copy');
  assert.equal(hex(rows), hex(file.rowBytes(1, 2, 7, 5)));
  for (let l = 0; l < L; l++) for (let h = 0; h < H; h++) assert.equal(hex(run.head(l, h)), hex(file.head(l, h)));
  assert.equal(hex(headFloat32(run, 1, 1)), hex(headFloat32(file, 1, 1)));
  assert.equal(hex(headWindow(run, 0, 2, 250, 50, 3, 90)), hex(headWindow(file, 0, 2, 250, 50, 3, 90)));
  const [a, b] = [headPicture(run, 1, 0), headPicture(file, 1, 0)];
  assert.deepEqual([a.res, a.max, hex(a.indices)], [b.res, b.max, hex(b.indices)]);
  const [p, q] = [passOverRange(run, 0, L * H, { softmax: true }), passOverRange(file, 0, L * H, { softmax: true })];
  assert.deepEqual(p.stats, q.stats);
  assert.equal(hex(p.thumbnails), hex(q.thumbnails));
  assert.deepEqual(p.pictures!.map((x) => hex(x.indices)), q.pictures!.map((x) => hex(x.indices)));
  assert.equal(hex(rolloutOf(run)!), hex(rolloutOf(file)!));
});

test('a spec\'s float64 heads read as an F64 file of them; a head or rows outside are refused', () => {
  const n = 5;
  const heads = Array.from({ length: 2 }, (_, h) => Float64Array.from({ length: n * n }, (_, k) => (k % n <= Math.floor(k / n) ? 1 / (Math.floor(k / n) + 1) + h * 1e-17 : 0)));
  const spec = arrayAttention({ file: 'the spec', layers: 1, heads: 2, n, weights: (_layer, head) => heads[head] });
  const file = attentionOf(memorySource('x', writeSafetensors([{ name: 'attention', dtype: 'F64', shape: [1, 2, n, n], data: heads }])));
  assert.equal(spec.dtype, 'F64');
  assert.equal(hex(spec.head(0, 1)), hex(file.head(0, 1)));
  assert.deepEqual(passOverRange(spec, 0, 2).stats, passOverRange(file, 0, 2).stats);
  assert.throws(() => spec.rowBytes(0, 2, 0, 1), /outside 1 × 2/);
  assert.throws(() => spec.rowBytes(0, 0, 3, 3), /outside the 5 queries/);
  assert.throws(() => layersAttention('short', [new Float32Array(7)], 1, 3).head(0, 0), /not 3 × 3 F32/);
});

test('a computed spec\'s input reads as an F64 file of its heads\' weights, with its tokens', () => {
  const { spec } = readSpec(readFileSync(join(ROOT, 'examples', 'apple-watch-lens.attn.json'), 'utf8'));
  const [input] = attentionData(spec!).inputs;
  const n = input.tokens.length, heads = input.heads.map((h) => h.weights.data);
  const a = inputAttention(input);
  const file = attentionOf(memorySource(input.name, writeSafetensors([{ name: 'attention', dtype: 'F64', shape: [1, heads.length, n, n], data: heads }], { tokens: JSON.stringify(input.tokens) })));
  assert.deepEqual(shapeOf(a), shapeOf(file));
  for (let h = 0; h < heads.length; h++) assert.equal(hex(a.head(0, h)), hex(heads[h]));
  assert.deepEqual(passOverRange(a, 0, heads.length).stats, passOverRange(file, 0, heads.length).stats);
  assert.equal(hex(rolloutOf(a)!), hex(rolloutOf(file)!));
  assert.throws(() => arrayAttention({ file: 'none', layers: 1, heads: 0, n: 3, weights: () => new Float64Array(9) }), /holds no attention/);
});
