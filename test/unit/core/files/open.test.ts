// Opening an attention file (src/core/files/open.ts, src/core/tensors/source.ts) beside things a hostile folder may
// hold. Opening a FIFO for reading waits for a writer, so each read runs in a child (runInChild):
// without the checks it would block this process for good.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runInChild } from '../../../support/child.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { tempDir } from '../../../support/temp-dir.js';

test('a FIFO as the tokens file beside an attention file (X.tokens.json) is refused at once, not waited on', () => {
  const dir = tempDir('attn-open-');
  execFileSync('mkfifo', [join(dir, 'run.tokens.json')]);
  const child = runInChild(`const { sidecarTokens } = require('./src/core/files/open.ts');
    try { sidecarTokens(process.argv[1]); console.log('read'); } catch (e) { console.log(e.message); }`, join(dir, 'run.npy'));
  assert.equal(child.signal, null, 'the child was killed: opening the FIFO blocked');
  assert.match(child.stdout, /run\.tokens\.json: not a regular file/);
});

test('attn inspect on a FIFO named like a tensor file is refused at once, not waited on', () => {
  const dir = tempDir('attn-fifo-');
  execFileSync('mkfifo', [join(dir, 'pipe.npy')]);
  const child = runInChild(`const { fileSource } = require('./src/core/files/file-source.ts');
    try { fileSource(process.argv[1]); console.log('opened'); } catch (e) { console.log(e.message); }`, join(dir, 'pipe.npy'), 20_000);
  assert.equal(child.signal, null, 'the child was killed after 20 s: opening the FIFO blocked');
  assert.match(child.stdout, /pipe\.npy: not a regular file/);
});

test("a spec's tokens are shown even when the file has its own (they were silently ignored), with a note when the two differ", () => {
  const dir = tempDir('attn-open-');
  const file = join(dir, 'run.safetensors');
  writeSafetensors(file, randomAttention(1, 1, 3), 1, 1, 3, ['x', 'y', 'z']);
  const given = openAttention(file, { tokens: ['a', 'b', 'c'] });
  assert.deepEqual(given.tokens, ['a', 'b', 'c']);
  assert.deepEqual(given.notes, [`the spec's tokens are shown, not the file's own ("x" "y" "z")`]);
  given.close();
  const same = openAttention(file, { tokens: ['x', 'y', 'z'] });
  assert.equal(same.notes, undefined, 'the same tokens: nothing to say');
  same.close();
  const own = openAttention(file);
  assert.deepEqual(own.tokens, ['x', 'y', 'z']);
  own.close();
  assert.throws(() => openAttention(file, { tokens: ['a', 'b'] }), /2 token\(s\) given, but the attention is 3 × 3/);
});
