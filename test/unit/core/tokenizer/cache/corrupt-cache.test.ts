// A damaged cache entry is passed over, never trusted: seeded cases truncate the entry, flip bytes in
// it, change its version, put another file's entry in its place or declare sizes of gigabytes; each load
// then builds from tokenizer.json (the same tokens as a load without the cache), throws nothing, and
// writes the entry again, which the next load reads. Payloads damaged and then sealed again with a
// correct hash (as a buggy or hostile writer would) reach the digest's own checks: huge sizes and a wrong
// version are refused there, and no case throws or hangs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenizerFrom, type Tokenizer, type TokenizerFiles } from '../../../../../src/core/tokenizer/index.js';
import * as cache from '../../../../../src/core/tokenizer/cache/cached-load.js';
import { folderStore, tokenizerCache } from '../../../../../src/core/files/tokenizer-store.js';
import { tinyTokenizerJson } from '../../../../support/tiny-tokenizer.js';
import { cacheTexts } from '../../../../support/cache-texts.js';
import { between, seeded } from '../../../../support/random.js';
import { tempDir } from '../../../../support/temp-dir.js';

const TEXTS = cacheTexts(11, 20);
/** The store's entry: magic (8), version (u32), identity bytes (u32), payload bytes (u32), payload SHA-256 (32). */
const HEADER = 52;

function setup(json: string) {
  const dir = tempDir('attn-tok-');
  writeFileSync(join(dir, 'tokenizer.json'), json);
  const files: TokenizerFiles = { tokenizerJson: json };
  const cacheDir = join(dir, 'cache');
  const load = () => {
    cache.forgetKeptTokenizers();
    return tokenizerFrom(files, tokenizerCache(dir, files, folderStore(cacheDir)));
  };
  load();
  const [name] = readdirSync(join(cacheDir, 'tokenizers'));
  return { load, entry: join(cacheDir, 'tokenizers', name), fresh: tokenizerFrom(files) };
}

const ids = (t: Tokenizer) => TEXTS.map((text) => t.encode(text).ids);

/** The entry with its payload replaced and sealed again: header and hash right for the new payload. */
function sealed(entry: Buffer, payload: Buffer): Buffer {
  const idLength = entry.readUInt32LE(12);
  const header = Buffer.from(entry.subarray(0, HEADER + idLength));
  header.writeUInt32LE(payload.length, 16);
  createHash('sha256').update(payload).digest().copy(header, 20);
  return Buffer.concat([header, payload]);
}

test('a damaged entry is passed over: built from tokenizer.json, the same tokens, and written again', () => {
  const { load, entry, fresh } = setup(tinyTokenizerJson(700));
  const other = setup(tinyTokenizerJson(900)).entry;
  const good = readFileSync(entry);
  const want = ids(fresh);
  const rand = seeded(2024);
  const damages: Record<string, (b: Buffer) => Buffer> = {
    truncated: (b) => b.subarray(0, between(rand, 0, b.length - 1)),
    'bytes flipped': (b) => {
      const c = Buffer.from(b);
      for (let n = between(rand, 1, 8); n > 0; n--) c[between(rand, 0, c.length - 1)] ^= 1 << between(rand, 0, 7);
      return c;
    },
    'another version': (b) => { const c = Buffer.from(b); c.writeUInt32LE(between(rand, 2, 1000), 8); return c; },
    "another file's entry": () => readFileSync(other),
    'huge declared sizes': (b) => { const c = Buffer.from(b); c.writeUInt32LE(0xffffffff - between(rand, 0, 9), rand() < 0.5 ? 12 : 16); return c; },
    'extra bytes': (b) => Buffer.concat([b, Buffer.alloc(between(rand, 1, 64), 7)]),
    empty: () => Buffer.alloc(0),
  };
  const kinds = Object.keys(damages);
  for (let i = 0; i < 70; i++) {
    const kind = kinds[i % kinds.length];
    writeFileSync(entry, damages[kind](good));
    const t = load();
    assert.equal(cache.lastLoad, 'built', `case ${i} (${kind}): built from tokenizer.json`);
    assert.deepEqual(ids(t), want, `case ${i} (${kind}): the tokens`);
    assert.deepEqual(readFileSync(entry), good, `case ${i} (${kind}): the entry written again`);
    load();
    assert.equal(cache.lastLoad, 'disk', `case ${i} (${kind}): and read by the next load`);
  }
});

test('a damaged payload sealed with a right hash meets the digest\'s own checks: no throw, no hang', () => {
  const { load, entry, fresh } = setup(tinyTokenizerJson(700));
  const good = readFileSync(entry);
  const payload = good.subarray(HEADER + good.readUInt32LE(12));
  const want = ids(fresh);
  const rand = seeded(77);
  // The digest's header: magic, version, shell bytes, pieces kind, pieces bytes, pieces, merges, 0.
  const refused: [string, (p: Buffer) => Buffer][] = [
    ['another digest version', (p) => { const c = Buffer.from(p); c.writeUInt32LE(999, 4); return c; }],
    ...[8, 16, 20, 24].map((at): [string, (p: Buffer) => Buffer] => [`a huge u32 at ${at}`, (p) => { const c = Buffer.from(p); c.writeUInt32LE(0xfffffff0, at); return c; }]),
    ['truncated', (p) => p.subarray(0, between(rand, 0, p.length - 1))],
  ];
  for (const [kind, damage] of refused) {
    writeFileSync(entry, sealed(good, damage(payload)));
    const t = load();
    assert.equal(cache.lastLoad, 'built', `${kind}: refused`);
    assert.deepEqual(ids(t), want, `${kind}: the tokens`);
  }
  for (let i = 0; i < 80; i++) {
    const c = Buffer.from(payload);
    for (let n = between(rand, 1, 4); n > 0; n--) c[between(rand, 0, c.length - 1)] = between(rand, 0, 255);
    writeFileSync(entry, sealed(good, c));
    const t = load();
    // A sealed change the checks cannot see (another id, a piece's letter) loads as written: the hash
    // over the bytes read is what keeps an entry true to its file. A refused one builds the right tokens.
    if (cache.lastLoad === 'built') assert.deepEqual(ids(t), want, `case ${i}: the tokens`);
  }
});
