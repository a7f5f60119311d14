// The model editor's reader workers (dist/model-worker.js, built by scripts/build.mjs): a scan shared
// out between two workers, a range of heads each, gives exactly the one-thread pass (statistics,
// thumbnails, warnings), heard head by head in order; a head and the rollout come back as the core
// computes them in this thread; a file the readers refuse comes back as their message, marked as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelReader, ReaderError } from '../../src/host/model-reader.js';
import { headRanges, scanWithReaders } from '../../src/host/model-scan.js';
import { openAttention } from '../../src/core/tensors/open.js';
import { headerOf, headFloat32, rolloutOf, scanModel } from '../../src/core/model-attention/scan.js';
import { randomAttention, writeSafetensors } from '../support/model-fixture.js';

const worker = join(__dirname, '..', '..', 'dist', 'model-worker.js');

test('two workers share the scan a head at a time; the result is the one-thread pass, heard in order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attn-reader-'));
  const file = join(dir, 'm.safetensors');
  const values = randomAttention(3, 2, 6, 5);
  values[4] = 0.9; // layer 0 head 0 query 0 no longer sums to 1: the warning must survive the sharing
  writeSafetensors(file, values, 3, 2, 6, ['a', 'b', 'a', 'b', 'c', 'a']);
  const local = openAttention(file);
  const readers = [new ModelReader(worker), new ModelReader(worker)];
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
    // Stopped (the editor closed): no more ranges are asked for, and nothing more is heard.
    let calls = 0;
    const stopped = await scanWithReaders(readers, shape, {}, () => { calls++; }, () => calls >= 1, 36);
    assert.ok(stopped.read < 6 && calls === 1, `stopped after ${stopped.read} heads, ${calls} call(s)`);
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
  const dir = mkdtempSync(join(tmpdir(), 'attn-reader-'));
  const file = join(dir, 'nan.safetensors');
  const values = randomAttention(1, 4, 5, 2);
  values[3 * 25 + 2 * 5 + 1] = NaN; // head 3, query 2, key 1
  writeSafetensors(file, values, 1, 4, 5);
  const readers = [new ModelReader(worker), new ModelReader(worker)];
  try {
    const shape = await readers[0].open(file);
    await readers[1].open(file);
    await assert.rejects(scanWithReaders(readers, shape, {}, () => {}, () => false, 25), (e: unknown) => e instanceof ReaderError && /layer 0 head 3: the weight of query 2 on key 1 is NaN/.test(e.message));
  } finally {
    for (const r of readers) r.dispose();
  }
});
