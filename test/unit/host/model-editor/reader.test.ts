// The model editor's reader workers (dist/scan-worker.js, built by scripts/build.mjs): a scan shared
// out between two workers, a range of heads each, gives exactly the one-thread pass (statistics,
// thumbnails, warnings), heard head by head in order; a head and the rollout come back as the core
// computes them in this thread; a file the readers refuse comes back as their message, marked as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelReader, ReaderError } from '../../../../src/host/model-editor/reader.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { headRanges, scanWithReaders } from '../../../../src/host/model-editor/scan.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { headerOf, headFloat32, headPicture, keptPictureSide, rolloutOf, scanModel } from '../../../../src/core/model-attention/scan.js';
import { maxOf, poolMax, SENT_PICTURE_MAX } from '../../../../src/core/model-attention/data.js';
import { heatmapIndices } from '../../../../src/core/tensors/heatmap.js';
import { randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

const worker = join(ROOT, 'dist', 'scan-worker.js');
const workers = new WorkerService({ scan: { file: worker } });

test('two workers share the scan a head at a time; the result is the one-thread pass, heard in order', async () => {
  const dir = tempDir('attn-reader-');
  const file = join(dir, 'm.safetensors');
  const values = randomAttention(3, 2, 6, 5);
  values[4] = 0.9; // layer 0 head 0 query 0 no longer sums to 1: the warning must survive the sharing
  writeSafetensors(file, values, 3, 2, 6, ['a', 'b', 'a', 'b', 'c', 'a']);
  const local = openAttention(file);
  const readers = [new ModelReader(workers), new ModelReader(workers)];
  try {
    const shape = await readers[0].open(file);
    await readers[1].open(file);
    assert.deepEqual(headRanges(shape, 36), [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6]]);
    const heard: number[] = [];
    const done = await scanWithReaders(readers, shape, {}, (d) => heard.push(d.read), () => false, 36);
    const expected = scanModel(local);
    assert.deepEqual(headerOf(shape, done.result(), {}), expected.header);
    assert.equal(expected.header.offRows, 1);
    assert.deepEqual(Array.from(done.thumbnails), Array.from(expected.thumbnails));
    assert.deepEqual(heard, [...heard].sort((a, b) => a - b), 'heads are heard in order');
    assert.equal(heard.at(-1), 6);
    assert.deepEqual(Array.from(await readers[0].head(1, 0, {})), Array.from(headFloat32(local, 1, 0)));
    assert.deepEqual(Array.from((await readers[1].rollout({}))!), Array.from(rolloutOf(local)!));
    // Scores before the softmax: the shared scan applies it as the single pass does.
    const soft = await scanWithReaders(readers, shape, { softmax: true }, () => {}, () => false, 36);
    assert.deepEqual(headerOf(shape, soft.result(), { softmax: true }), scanModel(local, { softmax: true }).header);
    // A reader that joins later (the editor's helpers, once the webview has booted): the same pass.
    let admit: (r: ModelReader[]) => void = () => {};
    const later = new Promise<ModelReader[]>((resolve) => { admit = resolve; });
    const joined = scanWithReaders([readers[0]], shape, {}, (d) => { if (d.read === 1) admit([readers[1]]); }, () => false, 36, later);
    assert.deepEqual(headerOf(shape, (await joined).result(), {}), expected.header);
    // Stopped (the editor closed) once the first range is answered: no more ranges are asked for, and
    // nothing more is heard. (Stopping on the first head heard raced: the second worker could read every
    // later range while the first still read head 0, and head 0 then brought all six at once.)
    let calls = 0, asked = 0, answered = 0;
    const counting = readers.map((r) => ({
      pass: async (...args: Parameters<ModelReader['pass']>) => { asked++; const part = await r.pass(...args); answered++; return part; },
    }));
    const stopped = await scanWithReaders(counting, shape, {}, () => { calls++; }, () => answered >= 1, 36);
    assert.ok(stopped.read < 6 && asked === 2 && calls === 0, `stopped after ${stopped.read} heads, ${asked} range(s) asked, ${calls} call(s)`);
    const cut = join(dir, 'cut.safetensors');
    const whole = readFileSync(file);
    writeFileSync(cut, whole.subarray(0, whole.length - 4));
    await assert.rejects(readers[0].open(cut), (e: unknown) => e instanceof ReaderError && e.tensorError && /cut\.safetensors: .*(truncated|outside)/.test(e.message));
  } finally {
    for (const r of readers) r.dispose();
    local.close();
  }
});

test('a NaN in the second worker\'s range rejects the scan with its place', async () => {
  const dir = tempDir('attn-reader-');
  const file = join(dir, 'nan.safetensors');
  const values = randomAttention(1, 4, 5, 2);
  values[3 * 25 + 2 * 5 + 1] = NaN; // head 3, query 2, key 1
  writeSafetensors(file, values, 1, 4, 5);
  const readers = [new ModelReader(workers), new ModelReader(workers)];
  try {
    const shape = await readers[0].open(file);
    await readers[1].open(file);
    await assert.rejects(scanWithReaders(readers, shape, {}, () => {}, () => false, 25), (e: unknown) => e instanceof ReaderError && /layer 0 head 3: the weight of query 2 on key 1 is NaN/.test(e.message));
  } finally {
    for (const r of readers) r.dispose();
  }
});

test('a big head as the editor sends it: the picture is the whole head pooled and coloured, windows are its exact weights', async () => {
  const dir = tempDir('attn-reader-');
  const n = 1100; // past SENT_PICTURE_MAX: pooled to 512 a side (blocks of 2 or 3 keys)
  const file = join(dir, 'big.safetensors');
  writeSafetensors(file, randomAttention(1, 1, n, 9), 1, 1, n);
  const local = openAttention(file);
  const reader = new ModelReader(workers);
  try {
    const whole = headFloat32(local, 0, 0);
    const R = SENT_PICTURE_MAX;
    const pooled = new Float32Array(R * R);
    poolMax(whole, n, R, pooled);
    const max = maxOf(whole);
    const expected = heatmapIndices(pooled, 0, R, R, R, max);
    await reader.open(file);
    const picture = await reader.picture(0, 0, {});
    assert.equal(picture.res, R);
    assert.equal(picture.max, max);
    assert.ok(Buffer.from(picture.indices).equals(Buffer.from(expected)), 'the same colour index for every pixel');
    // The scan keeps the same picture (the editor's head switch then reads nothing).
    const shape = await reader.open(file);
    assert.equal(keptPictureSide(shape), R);
    const scanned = await scanWithReaders([reader], shape, {}, () => {});
    assert.equal(scanned.pictures.length, 1);
    assert.equal(scanned.pictures[0].max, max);
    assert.ok(Buffer.from(scanned.pictures[0].indices).equals(Buffer.from(expected)), 'the scan\'s picture is the one read on request');
    assert.equal(keptPictureSide({ layers: 12, heads: 12, tokens: 256 }), 0, 'heads sent whole need no picture');
    assert.equal(keptPictureSide({ layers: 64, heads: 64, tokens: 1024 }), 0, '4,096 pictures of 512² are over the memory kept');
    const window = await reader.window(0, 0, 1000, 100, 37, 200, {});
    for (let i = 0; i < 100; i++) {
      for (let j = 0; j < 200; j += 13) assert.equal(window[i * 200 + j], whole[(1000 + i) * n + 37 + j]);
    }
    await assert.rejects(reader.window(0, 0, 1050, 100, 0, 10, {}), /not within 1100 × 1100/);
    await assert.rejects(reader.window(0, 0, 0, 600, 0, 600, {}), /262144 cells/);
    // A head of at most 512 tokens is its own picture: no pooling.
    const smallFile = join(dir, 'small.safetensors');
    writeSafetensors(smallFile, randomAttention(1, 2, 300, 4), 1, 2, 300);
    const small = openAttention(smallFile);
    const w = headFloat32(small, 0, 1);
    const own = headPicture(small, 0, 1);
    assert.equal(own.res, 300);
    assert.ok(Buffer.from(own.indices).equals(Buffer.from(heatmapIndices(w, 0, 300, 300, 300, maxOf(w)))));
    small.close();
  } finally {
    reader.dispose();
    local.close();
  }
});

test('F16 and BF16 pictures are pooled on the codes: the same indices as decoding every weight; ±Infinity and NaN refused with the place', () => {
  const n = 700;
  for (const dtype of ['F16', 'BF16'] as const) {
    const values = randomAttention(1, 2, n, 6);
    values[n * n + 3 * n + 5] = -0.25; // a negative weight in head 1: the floor, never the maximum
    const codes = new Uint16Array(values.length);
    const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
    for (let k = 0; k < values.length; k++) {
      f32[0] = values[k];
      codes[k] = dtype === 'BF16' ? u32[0] >>> 16 : toHalfBits(values[k]);
    }
    const bytes = new Uint8Array(codes.buffer);
    const file = (b: Uint8Array) => attentionFromTensors('mem', [{ name: 'a', dtype, shape: [1, 2, n, n], source: memorySource('mem', b), offset: 0 }], undefined, () => {});
    const a = file(bytes);
    for (const head of [0, 1]) {
      const whole = headFloat32(a, 0, head);
      const pooled = new Float32Array(512 * 512);
      poolMax(whole, n, 512, pooled);
      const got = headPicture(a, 0, head);
      assert.equal(got.max, maxOf(whole), `${dtype} head ${head}: the strongest weight`);
      assert.ok(Buffer.from(got.indices).equals(Buffer.from(heatmapIndices(pooled, 0, 512, 512, 512, maxOf(whole)))), `${dtype} head ${head}: every pixel`);
    }
    for (const bad of dtype === 'F16' ? [0x7c00, 0xfc00, 0x7e00, 0xfe01] : [0x7f80, 0xff80, 0x7fc0]) {
      const broken = new Uint16Array(codes);
      broken[n * n + 10 * n + 600] = bad;
      assert.throws(() => headPicture(file(new Uint8Array(broken.buffer)), 0, 1), /layer 0 head 1: the weight of query 10 on key 600 is (-?Infinity|NaN)/);
    }
  }
});

/** float32 → binary16 bits, round to nearest (weights in [0, 1]). */
function toHalfBits(v: number): number {
  if (v === 0) return 0;
  const e = Math.floor(Math.log2(Math.abs(v)));
  if (e < -14) return (v < 0 ? 0x8000 : 0) | Math.round(Math.abs(v) / 2 ** -24);
  const frac = Math.round((Math.abs(v) / 2 ** e - 1) * 1024);
  return (v < 0 ? 0x8000 : 0) | (frac === 1024 ? ((e + 16) << 10) : ((e + 15) << 10) | frac);
}

test('the editor\'s scan of more heads than the thumbnails\' budget: the workers pool to the smaller side the shape gives, and its warnings say so', async () => {
  // 32 layers × 64 heads of 64 tokens: 8.4 million thumbnail pixels at 64², over THUMBNAILS; 32² fits.
  const dir = tempDir('attn-reader-');
  const file = join(dir, 'many.safetensors');
  writeSafetensors(file, randomAttention(32, 64, 64, 4), 32, 64, 64);
  const local = openAttention(file);
  const readers = [new ModelReader(workers), new ModelReader(workers)];
  try {
    const shape = await readers[0].open(file);
    await readers[1].open(file);
    assert.equal(shape.thumb, 32);
    const done = await scanWithReaders(readers, shape, {}, () => {}, () => false);
    assert.equal(done.thumbnails.length, 2048 * 32 * 32, 'the workers\' thumbnails are the shape\'s side');
    const expected = scanModel(local);
    assert.deepEqual(headerOf(shape, done.result(), {}), expected.header);
    assert.deepEqual(Array.from(done.thumbnails.subarray(0, 4096)), Array.from(expected.thumbnails.subarray(0, 4096)));
    assert.deepEqual(expected.header.warnings, ['the grid of thumbnails of 32 layers × 64 heads at 64×64 needs 8.4 million pixels, over the budget of 4.2 million: they are drawn at 32×32']);
    // Each thumbnail is the head max-pooled to 32² (the side the pass was given, not 64² pooled again).
    const pooled = new Float32Array(32 * 32);
    poolMax(headFloat32(local, 31, 63), 64, 32, pooled);
    assert.deepEqual(Array.from(expected.thumbnails.subarray(2047 * 1024)), Array.from(pooled));
  } finally {
    for (const r of readers) r.dispose();
    local.close();
  }
});

test('a reader holding attention opens it whatever path it is asked for, and reads its heads in place', async () => {
  const [layers, heads, n] = [2, 2, 4];
  const weights = randomAttention(layers, heads, n, 11);
  const values = new SharedArrayBuffer(weights.byteLength);
  new Float32Array(values).set(weights);
  const reader = ModelReader.holding(workers, { name: 'cell-3', tokens: ['a', 'b', 'c', 'd'], shape: [layers, heads, n, n], dtype: 'float32', values });
  try {
    const shape = await reader.open('/no/such/file.safetensors');
    assert.deepEqual([shape.layers, shape.heads, shape.tokenTexts], [layers, heads, ['a', 'b', 'c', 'd']]);
    const head = await reader.head(1, 0, {});
    assert.deepEqual([...head], [...weights.subarray(2 * n * n, 3 * n * n)]);
  } finally {
    reader.dispose();
  }
});
