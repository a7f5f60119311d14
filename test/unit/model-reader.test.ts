// The model editor's reader worker (dist/model-worker.js, built by scripts/build.mjs): the scan, a
// head and the rollout come back as the core computes them in this thread, and a file the readers
// refuse comes back as their message, marked as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelReader, ReaderError } from '../../src/host/model-reader.js';
import { openAttention } from '../../src/core/tensors/open.js';
import { headFloat32, rolloutOf, scanModel } from '../../src/core/model-attention/scan.js';
import { randomAttention, writeSafetensors } from '../support/model-fixture.js';

const worker = join(__dirname, '..', '..', 'dist', 'model-worker.js');

test('the worker answers scan, head and rollout with the core\'s numbers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attn-reader-'));
  const file = join(dir, 'm.safetensors');
  writeSafetensors(file, randomAttention(2, 2, 6, 5), 2, 2, 6, ['a', 'b', 'a', 'b', 'c', 'a']);
  const local = openAttention(file);
  const reader = new ModelReader(worker);
  try {
    const scanned = await reader.scan(file, {});
    const expected = scanModel(local);
    assert.deepEqual(scanned.header, expected.header);
    assert.deepEqual(Array.from(scanned.thumbnails), Array.from(expected.thumbnails));
    assert.deepEqual(Array.from(await reader.head(1, 0, {})), Array.from(headFloat32(local, 1, 0)));
    assert.deepEqual(Array.from((await reader.rollout({}))!), Array.from(rolloutOf(local)!));
    const cut = join(dir, 'cut.safetensors');
    const whole = readFileSync(file);
    writeFileSync(cut, whole.subarray(0, whole.length - 4));
    await assert.rejects(reader.scan(cut, {}), (e: unknown) => e instanceof ReaderError && e.tensorError && /cut\.safetensors: .*(truncated|outside)/.test(e.message));
  } finally {
    reader.dispose();
    local.close();
  }
});
