// The model run's engine (src/host/checkpoint-run/engine.ts) and the tokenizer caches: a folder
// reopened in the same worker reuses the tokenizer kept in memory; a new worker (memory emptied) with
// the same store on disk reads its entry; the ids stay those of the first run. The key's hash is that of
// the bytes the folder reader read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realEngine } from '../../../../src/host/checkpoint-run/engine.js';
import { folderStore } from '../../../../src/core/files/tokenizer-store.js';
import { readModelFolder } from '../../../../src/core/checkpoint-files/model-folder.js';
import * as cache from '../../../../src/core/tokenizer/cache/cached-load.js';
import { tempDir } from '../../../support/temp-dir.js';
import { writeTinyGpt2Json } from '../../../support/tiny-folder-json.js';

test('the engine keeps the tokenizer in memory and on disk', () => {
  const folder = writeTinyGpt2Json(join(tempDir(), 'tiny'));
  const cacheDir = tempDir();
  const text = 'The cat sat on the mat. The cat';
  cache.forgetKeptTokenizers();
  const first = realEngine(folderStore(cacheDir));
  const ids = first.run(folder, text).ids;
  assert.equal(cache.lastLoad, 'built');
  assert.equal(readdirSync(join(cacheDir, 'tokenizers')).length, 1);
  first.close();
  const reopened = realEngine(folderStore(cacheDir));
  assert.deepEqual(reopened.run(folder, text).ids, ids);
  assert.equal(cache.lastLoad, 'memory');
  reopened.close();
  cache.forgetKeptTokenizers();
  const worker = realEngine(folderStore(cacheDir));
  assert.deepEqual(worker.run(folder, text).ids, ids);
  assert.equal(cache.lastLoad, 'disk');
  worker.close();
});

test('the folder reader hashes the bytes of tokenizer.json it read, for the cache key', () => {
  const folder = writeTinyGpt2Json(join(tempDir(), 'tiny'));
  const read = readModelFolder(folder);
  read.close();
  assert.equal(read.tokenizerFiles.tokenizerJsonSha256, createHash('sha256').update(readFileSync(join(folder, 'tokenizer.json'))).digest('hex'));
});
