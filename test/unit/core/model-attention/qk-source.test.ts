// A run that keeps q and k instead of its heads (forward's attention 'qk') against the dense run on
// 1,024 tokens of four shapes (GPT-2, grouped-query RoPE, a sliding window with a softcap, an
// encoder): the same logits; every row range of every head read from the kept q and k (qkAttention's
// rowBytes, ranges that start and end anywhere) the same bytes as the dense run's; and the pass the
// forward made as it went the same statistics, thumbnails and pictures as passOverHeads gives over
// the dense attention and over the qk source; a window of keys computed from the rows' softmax max
// and sum alone (qkWindow) the same bits as the rows cut. The store is let go when the pass fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { ModelError } from '../../../../src/core/checkpoint/error.js';
import { layersAttention } from '../../../../src/core/tensors/attention-source.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';
import { qkAttention, qkWindow, runPictureSide } from '../../../../src/core/model-attention/qk-source.js';
import { MAX_WINDOW_CELLS } from '../../../../src/core/model-attention/data.js';
import { memoryQkStore, qkBytes, type QkShape } from '../../../../src/core/model-attention/qk-store.js';
import { headWindow, thumbOf } from '../../../../src/core/model-attention/scan.js';
import { QK_SHAPES, qkIds, qkModel } from '../../../support/qk-models.js';

const N = 1024;

for (const [name, config] of Object.entries(QK_SHAPES)) {
  test(`${name}: q and k kept give every row of every head bit for bit, and the run's pass equals passOverHeads over the dense run`, () => {
    const m = qkModel(config);
    const c = m.config, ids = qkIds(N, c.vocab);
    const tokens = ids.map((id) => `t${id % 17}`);
    const dense = forward(c, m.names, m.weights, ids);
    const run = forward(c, m.names, m.weights, ids, { attention: 'qk', qk: { file: 'the run', tokens } });
    assert.ok(run.qk, 'a qk run returns what it kept');
    assert.deepEqual(run.attention.map((a) => a.length), Array(c.layers).fill(0), 'no head kept');
    assert.deepEqual(run.logits, dense.logits);
    assert.equal(run.qk.run.store.kind, 'memory');
    const source = qkAttention(run.qk.run, { file: 'the run', tokens });
    const want = layersAttention('the run', dense.attention, c.heads, N, tokens);
    const ranges = [[0, N], [0, 1], [N - 1, 1], [37, 600], [511, 2], [900, 124]];
    for (let layer = 0; layer < c.layers; layer++) {
      for (let head = 0; head < c.heads; head++) {
        for (const [first, rows] of ranges) {
          assert.deepEqual(source.rowBytes(layer, head, first, rows), want.rowBytes(layer, head, first, rows), `layer ${layer} head ${head} rows ${first} + ${rows}`);
        }
      }
    }
    assert.deepEqual(source.head(1, 1), want.head(1, 1));
    // A window of keys from the rows' scales alone: the same bits as the rows cut.
    for (const [i0, rows, j0, cols] of [[0, N, 0, N], [500, 64, 0, 64], [700, 300, 650, 100], [1000, 24, 1000, 24], [3, 2, 900, 124], [100, 0, 5, 5]]) {
      for (const [layer, head] of [[0, 0], [c.layers - 1, c.heads - 1]]) {
        const rowsCut = new Float32Array(new Uint8Array(want.rowBytes(layer, head, i0, rows)).buffer);
        const cut = new Float32Array(rows * cols);
        for (let r = 0; r < rows; r++) cut.set(rowsCut.subarray(r * N + j0, r * N + j0 + cols), r * cols);
        assert.deepEqual(qkWindow(run.qk.run, layer, head, i0, rows, j0, cols), cut, `layer ${layer} head ${head} window ${i0} + ${rows} × ${j0} + ${cols}`);
        // The editor's window read goes through the source's key range (columnBytes), the same bits.
        if (rows * cols > 0 && rows * cols <= MAX_WINDOW_CELLS) assert.deepEqual(headWindow(source, layer, head, i0, rows, j0, cols), cut, `headWindow ${i0} + ${rows} × ${j0} + ${cols}`);
      }
    }
    assert.throws(() => qkWindow(run.qk!.run, 0, 0, 0, 1, N - 2, 3), /outside the 1024 keys/);
    const { thumb, picture } = run.qk;
    assert.equal(thumb, thumbOf({ layers: c.layers, heads: c.heads, n: N }).thumb);
    assert.equal(picture, 512);
    // The run keeps each key's column maximum too: the dense run's, bit for bit.
    const overDense = passOverHeads(want, { thumb, picture, columnMax: true });
    assert.ok(overDense.stats.length === c.layers * c.heads && overDense.pictures!.length === overDense.stats.length && overDense.columnMaxes!.length === overDense.stats.length);
    assert.deepEqual(run.qk.pass, overDense);
    assert.deepEqual(passOverHeads(source, { thumb, picture, columnMax: true }), overDense);
    const flat = c.layers * c.heads - 1, last = want.head(c.layers - 1, c.heads - 1);
    const byHand = new Float32Array(N);
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) byHand[j] = Math.max(byHand[j], last[i * N + j]);
    assert.deepEqual(run.qk.pass.columnMaxes![flat], byHand, 'the last head\'s column maxima, by hand');
    source.close();
    assert.throws(() => source.rowBytes(0, 0, 0, 1), /let go/);
  });
}

test('a qk run refuses float64 and a start part way, and lets its store go when the pass fails', () => {
  const m = qkModel(QK_SHAPES.gpt2);
  const ids = qkIds(40, m.config.vocab);
  assert.throws(() => forward(m.config, m.names, m.weights, ids, { attention: 'qk', precision: 'f64' }), (e: unknown) => e instanceof ModelError && /float32/.test(e.message));
  const start = { layer: 1, residual: new Float32Array(40 * m.config.dModel) };
  assert.throws(() => forward(m.config, m.names, m.weights, ids, { attention: 'qk', start }), (e: unknown) => e instanceof ModelError && /every layer/.test(e.message));
  let closed = 0;
  const store = (shape: QkShape) => { const s = memoryQkStore(shape); return { ...s, close: () => { closed++; s.close(); } }; };
  assert.throws(() => forward(m.config, m.names, m.weights, ids, { attention: 'qk', qk: { store }, onLayer: () => { throw new Error('stopped'); } }), /stopped/);
  assert.equal(closed, 1);
});

test('the pictures a qk run keeps: a power of two ≤ 512 that fits every head within the kept budget; none for heads sent whole', () => {
  assert.equal(runPictureSide(16, 32, 8192), 256);
  assert.equal(runPictureSide(2, 4, 1024), 512);
  assert.equal(runPictureSide(2, 4, 300), 256);
  assert.equal(runPictureSide(2, 4, 256), 0);
  assert.equal(runPictureSide(1024, 64, 8192), 32);
  assert.equal(qkBytes({ layers: 16, heads: 32, kvHeads: 8, headDim: 64, n: 8192 }), 1_342_177_280);
});

test('a memory store checks what it is asked for', () => {
  const s = memoryQkStore({ layers: 1, heads: 2, kvHeads: 1, headDim: 2, n: 3 });
  s.write(0, 'q', 1, Float32Array.from([1, 2, 3, 4, 5, 6]));
  assert.deepEqual([...s.read(0, 'q', 1, 1, 2)], [3, 4, 5, 6]);
  assert.throws(() => s.read(0, 'q', 0, 0, 1), /not kept/);
  assert.throws(() => s.read(0, 'k', 1, 0, 1), /outside/);
  assert.throws(() => s.read(0, 'q', 1, 2, 2), /outside the 3 positions/);
  assert.throws(() => s.write(0, 'k', 0, new Float32Array(5)), /cannot hold 5/);
});
