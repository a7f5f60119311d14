// The tokenizer caches (src/core/tokenizer/cache/cached-load.ts with the store on disk of
// src/core/files/tokenizer-store.ts): a tokenizer loaded from the disk cache gives the ids, pieces and
// labels of one built from tokenizer.json on the real files (bert-base-uncased's WordPiece, Llama 2's
// SentencePiece-style BPE, Llama 3 and Qwen3's byte-level BPE, Gemma 3, a GPT-2-shaped vocabulary) over
// seeded texts; one kept in memory is the same object while the file is unchanged; a changed file
// (same size and a new mtime, or the same mtime and new content) is built again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenizerFrom, type Tokenizer, type TokenizerFiles } from '../../../../../src/core/tokenizer/index.js';
import * as cache from '../../../../../src/core/tokenizer/cache/cached-load.js';
import { folderStore, tokenizerCache } from '../../../../../src/core/files/tokenizer-store.js';
import { bertUncasedJson, lenmlTokenizerJson } from '../../../../support/real-tokenizers.js';
import { tinyTokenizerJson } from '../../../../support/tiny-tokenizer.js';
import { cacheTexts } from '../../../../support/cache-texts.js';
import { tempDir } from '../../../../support/temp-dir.js';

/** A folder holding `json` as tokenizer.json, and its cache folder. */
function folderWith(json: string): { dir: string; files: TokenizerFiles; cacheDir: string } {
  const dir = tempDir('attn-tok-');
  writeFileSync(join(dir, 'tokenizer.json'), json);
  return { dir, files: { tokenizerJson: json }, cacheDir: join(dir, 'cache') };
}

/** A load through both caches, after the memory one is emptied (as a new process starts). */
function load(dir: string, files: TokenizerFiles, cacheDir: string): Tokenizer {
  cache.forgetKeptTokenizers();
  return tokenizerFrom(files, tokenizerCache(dir, files, folderStore(cacheDir)));
}

function sameTokens(name: string, a: Tokenizer, b: Tokenizer, texts: string[]): void {
  assert.equal(a.vocabSize, b.vocabSize, `${name}: vocabSize`);
  for (const text of texts) {
    const ea = a.encode(text), eb = b.encode(text);
    assert.deepEqual(eb, ea, `${name}: ${JSON.stringify(text)}`);
    for (const id of ea.ids) assert.equal(b.decodeOne(id), a.decodeOne(id), `${name}: id ${id} decoded`);
    assert.deepEqual(b.encode(text, 3), a.encode(text, 3), `${name}: the first 3 ids of ${JSON.stringify(text)}`);
  }
}

function cachedEqualsFresh(name: string, json: string, texts: string[]): void {
  const { dir, files, cacheDir } = folderWith(json);
  const fresh = tokenizerFrom(files);
  const first = load(dir, files, cacheDir);
  assert.equal(cache.lastLoad, 'built', `${name}: the first load builds`);
  const cached = load(dir, files, cacheDir);
  assert.equal(cache.lastLoad, 'disk', `${name}: the second load reads the cache`);
  sameTokens(`${name} (built with the cache)`, fresh, first, texts);
  sameTokens(`${name} (from the cache)`, fresh, cached, texts);
}

const TEXTS = cacheTexts(7, 120);

for (const name of ['llama2', 'llama3', 'qwen3'] as const) {
  test(`${name}: a tokenizer from the cache gives the tokens of one built from tokenizer.json`, () => {
    cachedEqualsFresh(name, lenmlTokenizerJson(name), TEXTS);
  });
}

test('gemma3 (33 MB): a tokenizer from the cache gives the tokens of one built from tokenizer.json', () => {
  cachedEqualsFresh('gemma3', lenmlTokenizerJson('gemma3'), TEXTS.slice(0, 40));
});

test('bert-base-uncased (WordPiece): a tokenizer from the cache gives the tokens of one built from tokenizer.json', () => {
  cachedEqualsFresh('bert', bertUncasedJson(), TEXTS);
});

test('a GPT-2-shaped vocabulary of 50,257 ids: a tokenizer from the cache gives the same tokens', () => {
  cachedEqualsFresh('gpt2', tinyTokenizerJson(50_257), TEXTS);
});

test('pieces that are lone halves of a surrogate pair (which UTF-8 cannot carry) come back from the cache as they were', () => {
  const json = JSON.parse(tinyTokenizerJson(400)) as { model: { vocab: Record<string, number> }; added_tokens: unknown[] };
  json.model.vocab['\ud83d'] = 400;
  json.model.vocab['\ude00x'] = 401;
  // Side by side the two halves make a pair in the pieces' join (which goes as UTF-8)…
  cachedEqualsFresh('halves that join', JSON.stringify(json), ['\ud83d', '\ude00x', 'a\ud83d\ude00x']);
  // …and a lone one at the end does not (the join goes as JSON).
  json.model.vocab['\udbff'] = 402;
  cachedEqualsFresh('a lone half', JSON.stringify(json), ['\ud83d', '\ude00x', 'a\ud83d\ude00x\udbff']);
  const { dir, files, cacheDir } = folderWith(JSON.stringify(json));
  load(dir, files, cacheDir);
  const cached = load(dir, files, cacheDir);
  assert.equal(cache.lastLoad, 'disk');
  assert.equal(cached.decodeOne(400), tokenizerFrom(files).decodeOne(400));
});

test('in memory: the same tokenizer while the file is unchanged, and only a few kept', () => {
  const { dir, files, cacheDir } = folderWith(tinyTokenizerJson(300));
  const first = load(dir, files, cacheDir);
  const again = tokenizerFrom(files, tokenizerCache(dir, files, folderStore(cacheDir)));
  assert.equal(cache.lastLoad, 'memory');
  assert.equal(again, first);
  // Without a store (the host's worker given no folder), memory alone.
  assert.equal(tokenizerFrom(files, tokenizerCache(dir, files)), first);
  const others = Array.from({ length: cache.KEPT_TOKENIZERS }, () => folderWith(tinyTokenizerJson(300)));
  for (const o of others) tokenizerFrom(o.files, tokenizerCache(o.dir, o.files));
  tokenizerFrom(files, tokenizerCache(dir, files));
  assert.notEqual(cache.lastLoad, 'memory', 'the oldest was let go');
});

test('a changed tokenizer.json is built again: same size with a new mtime, or the same mtime with new content', () => {
  const json = tinyTokenizerJson(300);
  const { dir, files, cacheDir } = folderWith(json);
  const path = join(dir, 'tokenizer.json');
  const before = load(dir, files, cacheDir);
  load(dir, files, cacheDir);
  assert.equal(cache.lastLoad, 'disk');

  const later = new Date(statSync(path).mtimeMs + 5000);
  utimesSync(path, later, later);
  tokenizerFrom(files, tokenizerCache(dir, files, folderStore(cacheDir)));
  assert.equal(cache.lastLoad, 'built', 'a new mtime: neither the memory nor the disk entry is used');

  // New content of the same length ("a" and "b" swap ids) under the same mtime.
  const parsed = JSON.parse(json) as { model: { vocab: Record<string, number> } };
  const v = parsed.model.vocab;
  [v.a, v.b] = [v.b, v.a];
  const changed = JSON.stringify(parsed);
  assert.equal(changed.length, json.length);
  const mtime = statSync(path).mtime;
  writeFileSync(path, changed);
  utimesSync(path, mtime, mtime);
  const changedFiles = { tokenizerJson: changed };
  const after = tokenizerFrom(changedFiles, tokenizerCache(dir, changedFiles, folderStore(cacheDir)));
  assert.equal(cache.lastLoad, 'built', 'new content: built again');
  sameTokens('changed', tokenizerFrom(changedFiles), after, TEXTS.slice(0, 30));
  assert.notDeepEqual(TEXTS.slice(0, 30).map((t) => after.encode(t).ids), TEXTS.slice(0, 30).map((t) => before.encode(t).ids), 'the swap changes the ids');
});
