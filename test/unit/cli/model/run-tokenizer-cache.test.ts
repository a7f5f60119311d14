// `attn run` and the tokenizer cache (src/cli/model/run-model.ts with src/core/files/tokenizer-store.ts):
// the first run writes an entry in $ATTN_CACHE_DIR/tokenizers, the next reads it and prints the same;
// --no-cache and ATTN_CACHE_DIR=off write nothing; a cache folder that cannot be made changes nothing.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cache from '../../../../src/core/tokenizer/cache/cached-load.js';
import { attn } from '../../../support/cli.js';
import { tempDir } from '../../../support/temp-dir.js';
import { writeTinyGpt2Json } from '../../../support/tiny-folder-json.js';

const folder = writeTinyGpt2Json(join(tempDir(), 'tiny'));
const saved = process.env.ATTN_CACHE_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.ATTN_CACHE_DIR;
  else process.env.ATTN_CACHE_DIR = saved;
});

/** attn run as a new process would do it: nothing kept in memory from an earlier run. */
async function run(...extra: string[]) {
  cache.forgetKeptTokenizers();
  const r = await attn('run', folder, '--text', 'The cat sat on the mat. The cat', '--json', ...extra);
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out) as { ids: number[]; tokens: string[]; next: unknown; attention: unknown };
  return { ids: json.ids, tokens: json.tokens, next: json.next, attention: json.attention };
}

test('the first run writes the cache, the next reads it and prints the same', async () => {
  const dir = tempDir();
  process.env.ATTN_CACHE_DIR = dir;
  const first = await run();
  assert.equal(cache.lastLoad, 'built');
  assert.equal(readdirSync(join(dir, 'tokenizers')).length, 1);
  const second = await run();
  assert.equal(cache.lastLoad, 'disk');
  assert.deepEqual(second, first);
});

test('--no-cache and ATTN_CACHE_DIR=off neither read nor write it', async () => {
  const dir = tempDir();
  process.env.ATTN_CACHE_DIR = dir;
  const plain = await run('--no-cache');
  assert.equal(existsSync(join(dir, 'tokenizers')), false);
  process.env.ATTN_CACHE_DIR = 'off';
  assert.deepEqual(await run(), plain);
  assert.equal(cache.lastLoad, 'built');
  assert.equal(existsSync(join(dir, 'tokenizers')), false);
});

test('a cache folder that cannot be made: the run goes on, built each time', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a-file'), '');
  process.env.ATTN_CACHE_DIR = join(dir, 'a-file');
  const first = await run();
  assert.deepEqual(await run(), first);
  assert.equal(cache.lastLoad, 'built');
});
