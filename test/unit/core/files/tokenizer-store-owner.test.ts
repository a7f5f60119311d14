// Who may write the tokenizer cache (src/core/files/tokenizer-store.ts). An entry's SHA-256 proves it
// whole, not who wrote it, so an entry that another user could write — a loose umask made the folder
// and files writable by the group or by everyone — could make a run tokenize differently. The store
// makes its folder and entries for their owner alone whatever the umask, and reads no entry another
// user owns or that others may write: a foreign tokenizer's digest planted there changes no token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderStore, ownedAlone, tokenizerCache, tokenizerSource } from '../../../../src/core/files/tokenizer-store.js';
import { prepareTokenizer } from '../../../../src/core/tokenizer/bpe-tokenizer.js';
import { digestBytes } from '../../../../src/core/tokenizer/cache/digest-bytes.js';
import { checkTokenizerJson, parseJsonFile } from '../../../../src/core/tokenizer/check-json.js';
import * as cache from '../../../../src/core/tokenizer/cache/cached-load.js';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import { tinyTokenizerJson } from '../../../support/tiny-tokenizer.js';
import { tempDir } from '../../../support/temp-dir.js';

const posix = process.platform !== 'win32';
const source = { path: '/m/tokenizer.json', size: 100, mtimeMs: 5, sha256: 'ab'.repeat(32) };
const entryOf = (folder: string) => join(folder, 'tokenizers', readdirSync(join(folder, 'tokenizers')).filter((n) => n.endsWith('.tokenizer'))[0]);

test('under any umask the folder and its entries are their owner\'s alone', { skip: !posix && 'no POSIX modes' }, () => {
  const old = process.umask(0);
  try {
    const folder = tempDir();
    folderStore(join(folder, 'made')).write(source, new Uint8Array([1, 2, 3]));
    assert.equal(statSync(join(folder, 'made')).mode & 0o777, 0o700);
    assert.equal(statSync(join(folder, 'made', 'tokenizers')).mode & 0o777, 0o700);
    assert.equal(statSync(entryOf(join(folder, 'made'))).mode & 0o777, 0o600);
  } finally {
    process.umask(old);
  }
});

test('an entry the group or others may write is not read; made private again, it is', { skip: !posix && 'no POSIX modes' }, () => {
  const folder = tempDir();
  const store = folderStore(folder);
  const bytes = new Uint8Array([7, 8, 9]);
  store.write(source, bytes);
  for (const mode of [0o620, 0o602, 0o666, 0o777]) {
    chmodSync(entryOf(folder), mode);
    assert.equal(store.read(source), undefined, mode.toString(8));
  }
  chmodSync(entryOf(folder), 0o600);
  assert.deepEqual(store.read(source), bytes);
});

test('an entry another user owns is not read', { skip: typeof process.getuid !== 'function' && 'no user ids' }, () => {
  const folder = tempDir();
  folderStore(folder).write(source, new Uint8Array([1]));
  const file = entryOf(folder);
  assert.equal(ownedAlone(file), true);
  const other = (path: string) => Object.assign(statSync(path), { uid: process.getuid!() + 1 });
  assert.equal(ownedAlone(file, other), false);
  assert.equal(ownedAlone(join(folder, 'none')), false);
});

test('another tokenizer\'s digest planted in a writable entry changes no token', { skip: !posix && 'no POSIX modes' }, () => {
  const dir = tempDir(), folder = tempDir();
  const json = tinyTokenizerJson(300), foreign = tinyTokenizerJson(260);
  writeFileSync(join(dir, 'tokenizer.json'), json);
  const files = { tokenizerJson: json };
  const store = folderStore(folder);
  const at = tokenizerSource(join(dir, 'tokenizer.json'), Buffer.from(json, 'utf8'))!;
  // A whole, well-formed entry for this tokenizer.json, holding the other tokenizer: its SHA-256 is right.
  store.write(at, digestBytes(prepareTokenizer(checkTokenizerJson(parseJsonFile(foreign, 'tokenizer.json')))));
  chmodSync(entryOf(folder), 0o666);
  const text = 'The cat sat on the mat, and the dog ran off.';
  const truth = tokenizerFrom(files).encode(text).ids;
  assert.notDeepEqual(tokenizerFrom({ tokenizerJson: foreign }).encode(text).ids, truth, 'the two tokenizers differ on the text');
  cache.forgetKeptTokenizers();
  assert.deepEqual(tokenizerFrom(files, tokenizerCache(dir, files, store)).encode(text).ids, truth);
  assert.equal(cache.lastLoad, 'built');
  // Built again, the entry was replaced by one of ours, which the next process reads.
  assert.equal(statSync(entryOf(folder)).mode & 0o777, 0o600);
  cache.forgetKeptTokenizers();
  assert.deepEqual(tokenizerFrom(files, tokenizerCache(dir, files, store)).encode(text).ids, truth);
  assert.equal(cache.lastLoad, 'disk');
});
