// The kept q and k in a private temporary file (qk-file-store.ts): what is written is read back, any
// rows; the file is unlinked at once (nothing left in its folder, whatever the process does next);
// where its name is kept, its folder is 0700 and the file 0600, and close or the process's exit
// deletes them; a run kept in a file gives the same rows as one kept in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileQkStore } from '../../../../src/core/checkpoint-files/qk-file-store.js';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { qkAttention } from '../../../../src/core/model-attention/qk-source.js';
import { tempDir } from '../../../support/temp-dir.js';
import { runInChild } from '../../../support/child.js';
import { QK_SHAPES, qkIds, qkModel } from '../../../support/qk-models.js';

const SHAPE = { layers: 2, heads: 4, kvHeads: 2, headDim: 3, n: 5 };
const numbers = (seed: number) => Float32Array.from({ length: SHAPE.n * SHAPE.headDim }, (_, i) => seed * 100 + i + 0.25);

test('what is written is read back, any rows, and nothing of it is left in the folder', () => {
  const parent = tempDir('attn-qk-parent-');
  const store = fileQkStore(SHAPE, { parent });
  assert.equal(store.kind, 'file');
  assert.deepEqual(readdirSync(parent), [], 'unlinked at once');
  store.write(1, 'k', 1, numbers(7));
  store.write(0, 'q', 3, numbers(3));
  assert.deepEqual(store.read(1, 'k', 1, 0, 5), numbers(7));
  assert.deepEqual(store.read(0, 'q', 3, 2, 2), numbers(3).subarray(6, 12));
  assert.throws(() => store.read(1, 'k', 2, 0, 1), /outside/);
  assert.throws(() => store.read(0, 'q', 0, 4, 2), /outside the 5 positions/);
  assert.throws(() => store.write(0, 'q', 0, new Float32Array(2)), /cannot hold 2/);
  store.close();
  assert.throws(() => store.read(1, 'k', 1, 0, 1), /let go/);
});

test('a named file: its folder 0700, the file 0600, deleted at close', () => {
  const parent = tempDir('attn-qk-parent-');
  const store = fileQkStore(SHAPE, { parent, unlinkOpen: false });
  const [dir] = readdirSync(parent);
  assert.match(dir, /^attn-qk-/);
  const file = join(parent, dir, 'qk.f32');
  if (process.platform !== 'win32') {
    assert.equal(statSync(join(parent, dir)).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  }
  store.write(0, 'k', 0, numbers(1));
  assert.deepEqual(store.read(0, 'k', 0, 1, 1), numbers(1).subarray(3, 6));
  store.close();
  assert.deepEqual(readdirSync(parent), []);
});

test('a named file not closed is deleted when the process exits', () => {
  const parent = tempDir('attn-qk-parent-');
  const script = `const { fileQkStore } = require('./src/core/checkpoint-files/qk-file-store.ts');
    fileQkStore({ layers: 1, heads: 1, kvHeads: 1, headDim: 1, n: 1 }, { parent: process.argv[1], unlinkOpen: false });
    console.log(require('node:fs').readdirSync(process.argv[1]).length);`;
  const r = runInChild(script, parent);
  assert.equal(r.signal, null, r.stderr);
  assert.equal(r.stdout.trim(), '1', r.stderr);
  assert.deepEqual(readdirSync(parent), []);
  assert.ok(existsSync(parent));
});

test('a run whose q and k are in a file gives the rows of one kept in memory', () => {
  const m = qkModel(QK_SHAPES['qwen2 (grouped-query, RoPE)']);
  const ids = qkIds(300, m.config.vocab);
  const inMemory = forward(m.config, m.names, m.weights, ids, { attention: 'qk' }).qk!;
  const inFile = forward(m.config, m.names, m.weights, ids, { attention: 'qk', qk: { store: (s) => fileQkStore(s) } }).qk!;
  assert.equal(inFile.run.store.kind, 'file');
  assert.deepEqual(inFile.pass, inMemory.pass);
  const a = qkAttention(inMemory.run, { file: 'the run' }), b = qkAttention(inFile.run, { file: 'the run' });
  for (let layer = 0; layer < 2; layer++) for (let head = 0; head < 4; head++) assert.deepEqual(b.rowBytes(layer, head, 17, 200), a.rowBytes(layer, head, 17, 200));
  b.close();
  a.close();
});
