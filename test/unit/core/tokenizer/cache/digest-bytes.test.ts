// A prepared tokenizer as bytes and back (src/core/tokenizer/cache/digest-bytes.ts): the round trip
// keeps every piece, id and merge; bytes written by no one it trusts are checked as tokenizer.json is —
// an unsafe regex, a merge naming no piece, a piece listed twice, sizes over the limits — and refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareTokenizer } from '../../../../../src/core/tokenizer/bpe-tokenizer.js';
import { checkTokenizerJson } from '../../../../../src/core/tokenizer/check-json.js';
import { DigestError, digestBytes, preparedFromBytes } from '../../../../../src/core/tokenizer/cache/digest-bytes.js';
import { TokenizerError } from '../../../../../src/core/tokenizer/tokenizer.js';
import type { Obj } from '../../../../../src/core/json/object.js';
import { llama3Style } from '../../../../support/tokenizer-fixtures.js';
import { bertUncasedJson } from '../../../../support/real-tokenizers.js';

const prepared = () => prepareTokenizer(checkTokenizerJson(llama3Style([['Ġ', 'c'], ['a', 't'], ['Ġc', 'at']], 400).json));
const u32 = (bytes: Uint8Array, at: number, value: number) => new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, value, true);

test('the round trip keeps the pieces in order, their ids, the merges and the rules', () => {
  const p = prepared();
  const back = preparedFromBytes(digestBytes(p));
  assert.deepEqual(back.bpe?.digest.pieces, p.bpe?.digest.pieces);
  assert.deepEqual(back.bpe?.digest.ids, p.bpe?.digest.ids);
  assert.deepEqual(back.bpe?.digest.merges, p.bpe?.digest.merges);
  assert.deepEqual(back.json, JSON.parse(JSON.stringify(p.json)));
  // A model that is not BPE goes whole in the shell, checked again as a file is.
  const bert = prepareTokenizer(checkTokenizerJson(JSON.parse(bertUncasedJson())));
  assert.equal(bert.bpe, undefined);
  assert.deepEqual(preparedFromBytes(digestBytes(bert)).json, JSON.parse(JSON.stringify(bert.json)));
});

test('rules the checks of tokenizer.json refuse are refused in a cached shell too', () => {
  const p = prepared();
  ((p.json.pre_tokenizer as Obj).pretokenizers as Obj[])[0].pattern = { Regex: '(a+)+b' };
  assert.throws(() => preparedFromBytes(digestBytes(p)), (e) => e instanceof TokenizerError && /catastrophic backtracking/.test(e.message));
});

test('a merge naming no piece, a piece twice, an id out of range, an unemptied BPE shell: refused', () => {
  const cases: [string, (p: ReturnType<typeof prepared>) => void, RegExp][] = [
    ['a merge past the pieces', (p) => { p.bpe!.digest.merges[1] = p.bpe!.digest.pieces.length; }, /a merge naming no piece/],
    ['a piece twice', (p) => { p.bpe!.digest.pieces[1] = p.bpe!.digest.pieces[0]; }, /a piece listed twice/],
    ['a negative id', (p) => { p.bpe!.digest.ids[3] = -1; }, /an id out of range/],
    ['a shell keeping its vocabulary', (p) => { (p.json.model as Obj).vocab = { a: 1 }; }, /not emptied/],
  ];
  for (const [what, spoil, message] of cases) {
    const p = prepared();
    spoil(p);
    assert.throws(() => preparedFromBytes(digestBytes(p)), (e) => e instanceof DigestError && message.test(e.message), what);
  }
});

test('declared sizes are checked against the bytes there before anything is allocated', () => {
  const good = digestBytes(prepared());
  // shell bytes, pieces bytes, pieces, merges: each huge, each alone.
  for (const at of [8, 16, 20, 24]) {
    for (const value of [0xffffffff, 0x7fffffff, (1 << 19) + 1]) {
      const bytes = good.slice();
      u32(bytes, at, value);
      assert.throws(() => preparedFromBytes(bytes), DigestError, `${value} at ${at}`);
    }
  }
  for (const length of [0, 5, 31, 32, good.length - 1]) assert.throws(() => preparedFromBytes(good.subarray(0, length)), DigestError, `${length} bytes`);
  const older = good.slice();
  u32(older, 4, 0);
  assert.throws(() => preparedFromBytes(older), /version 0/);
});
