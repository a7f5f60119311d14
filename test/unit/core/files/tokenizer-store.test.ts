// The tokenizer cache on disk (src/core/files/tokenizer-store.ts): where it lives (ATTN_CACHE_DIR, off,
// XDG_CACHE_HOME, ~/.cache), an entry read back only for the very source it was written for, a folder
// that cannot be written passed over without a word (and a load through it still right), two processes
// writing one entry at once leaving a whole entry of one of them at every moment, and the folder kept to
// its newest entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cacheFolder, folderStore, KEPT_ENTRIES, tokenizerCache } from '../../../../src/core/files/tokenizer-store.js';
import type { TokenizerSource } from '../../../../src/core/tokenizer/cache/source.js';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import * as cache from '../../../../src/core/tokenizer/cache/cached-load.js';
import { tinyTokenizerJson } from '../../../support/tiny-tokenizer.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

const source = (over: Partial<TokenizerSource> = {}): TokenizerSource => ({ path: '/m/tokenizer.json', size: 100, mtimeMs: 5, sha256: 'ab'.repeat(32), ...over });

test('the cache folder: ATTN_CACHE_DIR, none when it is off, else XDG_CACHE_HOME, else ~/.cache', () => {
  assert.equal(cacheFolder({ ATTN_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }), '/c');
  assert.equal(cacheFolder({ ATTN_CACHE_DIR: 'off', XDG_CACHE_HOME: '/x' }), undefined);
  assert.equal(cacheFolder({ XDG_CACHE_HOME: '/x' }), '/x/attention-lens');
  assert.equal(cacheFolder({ ATTN_CACHE_DIR: '', XDG_CACHE_HOME: '' }), join(homedir(), '.cache', 'attention-lens'));
});

test('an entry is read back for its own source only: another path, size, mtime or hash finds nothing', () => {
  const store = folderStore(tempDir());
  const bytes = new Uint8Array([1, 2, 3, 4, 5]);
  store.write(source(), bytes);
  assert.deepEqual(store.read(source()), bytes);
  for (const other of [{ path: '/n/tokenizer.json' }, { size: 101 }, { mtimeMs: 6 }, { sha256: 'cd'.repeat(32) }]) {
    assert.equal(store.read(source(other)), undefined, JSON.stringify(other));
  }
});

test('an entry far larger than its tokenizer.json could make is neither written nor read', () => {
  const folder = tempDir();
  const store = folderStore(folder);
  store.write(source({ size: 10 }), new Uint8Array(2 << 20));
  assert.equal(store.read(source({ size: 10 })), undefined);
  assert.deepEqual(readdirSync(folder), []);
});

test('a folder that cannot be made is passed over: nothing thrown, the tokenizer built each time', () => {
  const dir = tempDir();
  const json = tinyTokenizerJson(300);
  writeFileSync(join(dir, 'tokenizer.json'), json);
  writeFileSync(join(dir, 'a-file'), '');
  // A folder under a regular file cannot be made, whoever runs the test (root included).
  const store = folderStore(join(dir, 'a-file', 'cache'));
  store.write(source(), new Uint8Array(8));
  assert.equal(store.read(source()), undefined);
  const files = { tokenizerJson: json };
  for (let i = 0; i < 2; i++) {
    cache.forgetKeptTokenizers();
    const t = tokenizerFrom(files, tokenizerCache(dir, files, store));
    assert.equal(cache.lastLoad, 'built');
    assert.deepEqual(t.encode('The cat sat').ids, tokenizerFrom(files).encode('The cat sat').ids);
  }
});

test('two processes writing one entry at once: every read finds a whole entry of one of them (none before the first)', async () => {
  const folder = tempDir();
  const size = 2 << 20;
  // The store reads at most about twice tokenizer.json's size: the source says it is as large as the entry.
  const from = source({ size });
  const writer = join(ROOT, 'test', 'support', 'store-writer.ts');
  const done = [1, 2].map((fill) => new Promise<number | null>((resolve) => {
    spawn(process.execPath, ['--import', 'tsx', writer, folder, JSON.stringify(from), String(fill), String(size), '40'], { cwd: ROOT, stdio: 'ignore' }).on('exit', resolve);
  }));
  let running = true;
  void Promise.all(done).then(() => { running = false; });
  const store = folderStore(folder);
  const seen = new Set<number>();
  while (running) {
    const bytes = store.read(from);
    // Once there, an entry is replaced by a rename, never rewritten in place: no read finds it part-written.
    if (seen.size > 0) assert.ok(bytes !== undefined, 'an entry written is never missing or torn');
    if (bytes !== undefined) {
      assert.equal(bytes.length, size, 'a whole entry');
      assert.ok(bytes.every((b) => b === bytes[0]), 'of one writer');
      seen.add(bytes[0]);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.deepEqual(await Promise.all(done), [0, 0]);
  const last = store.read(from);
  assert.ok(last !== undefined && (last[0] === 1 || last[0] === 2), 'the last entry is whole');
  assert.deepEqual(readdirSync(join(folder, 'tokenizers')).filter((n) => n.endsWith('.tmp')), [], 'no temp file left');
});

test(`the folder keeps its ${KEPT_ENTRIES} newest entries`, () => {
  const folder = tempDir();
  const store = folderStore(folder);
  const dir = join(folder, 'tokenizers');
  for (let i = 0; i < KEPT_ENTRIES + 5; i++) {
    store.write(source({ mtimeMs: i }), new Uint8Array([i]));
    // Each entry older than the next, whatever the clock's resolution.
    for (const name of readdirSync(dir)) if (!name.endsWith('.tmp')) utimesSync(join(dir, name), 1000 + i, 1000 + i);
  }
  assert.equal(readdirSync(dir).length, KEPT_ENTRIES);
  assert.deepEqual(store.read(source({ mtimeMs: KEPT_ENTRIES + 4 })), new Uint8Array([KEPT_ENTRIES + 4]));
});
