// The Precompiled normalizer (src/core/tokenizer/precompiled.ts) on charsmaps built by
// test/support/precompiled-charsmap.ts: rules found through the double array, the grapheme rule with
// its quirks (a grapheme under 6 bytes is replaced whole by its shortest prefix's rule; one of 6 bytes
// or more goes character by character, so halfwidth "ｶﾞ" becomes "カ" + U+3099), and a blob that cannot
// be read refused by its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { precompiled } from '../../../../../src/core/tokenizer/parts/precompiled.js';
import { tokenizerFrom } from '../../../../../src/core/tokenizer/index.js';
import { charsmap } from '../../../../support/precompiled-charsmap.js';
import { between, seeded } from '../../../../support/random.js';

test('each character with a rule is replaced, others kept', () => {
  const n = precompiled(charsmap({ 'Ａ': 'A', '\u00a0': ' ', 'ﬁ': 'fi', '①': '1', '\u200b': '' }), 'k');
  assert.equal(n('Ａ\u00a0ﬁx①\u200by'), 'A fix1y');
  assert.equal(n('plain text'), 'plain text');
});

test('the grapheme rule: under 6 bytes the whole grapheme takes its shortest prefix\'s rule; at 6 bytes, each character its own', () => {
  const n = precompiled(charsmap({ e: 'E', 'ｶ': 'カ', 'ﾞ': '\u3099', 'ｶﾞ': 'ガ' }), 'k');
  // "e" + U+0301 is one grapheme of 3 bytes: the rule of its prefix "e" replaces it whole.
  assert.equal(n('e\u0301'), 'E');
  // "ｶﾞ" is one grapheme of 6 bytes: character by character.
  assert.equal(n('ｶﾞ'), 'カ\u3099');
  assert.equal(n('ｶ'), 'カ');
});

test('random rules over random texts: each character alone is replaced as the rules say', () => {
  const CHARS = ['a', 'b', 'Ａ', 'Ｂ', 'é', '日', '🙂', ' ', '\u00a0'];
  for (let seed = 1; seed <= 100; seed++) {
    const rand = seeded(seed);
    const rules: Record<string, string> = {};
    for (const c of CHARS) if (rand() < 0.5) rules[c] = ['x', '', 'yz', '日本'][between(rand, 0, 3)];
    if (Object.keys(rules).length === 0) continue;
    const n = precompiled(charsmap(rules), 'k');
    const text = Array.from({ length: between(rand, 0, 12) }, () => CHARS[between(rand, 0, CHARS.length - 1)]).join('');
    // Every character here is a grapheme of its own under 6 bytes but 🙂 (4 bytes): the whole-grapheme rule is the character's.
    assert.equal(n(text), [...text].map((c) => rules[c] ?? c).join(''), `seed ${seed}: ${JSON.stringify(text)}`);
  }
});

test('a charsmap that cannot be read is refused by its key, in a whole file too', () => {
  const refused = (map: unknown, message: RegExp) => assert.throws(() => precompiled(map, 'normalizer.precompiled_charsmap'), (err: unknown) => err instanceof Error && message.test(err.message));
  refused(null, /^tokenizer\.json: "normalizer\.precompiled_charsmap" is not a base64 string$/);
  refused('***', /is not base64$/);
  refused(btoa('\x01'), /is too short to hold a trie$/);
  refused(btoa('\xff\xff\x00\x00abcd'), /gives its trie 65535 bytes, which the blob of 8 does not hold$/);
  const json = {
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: 12 }] },
    model: { type: 'Unigram', unk_id: 0, vocab: [['<unk>', 0], ['a', -1]] },
  };
  assert.throws(() => tokenizerFrom({ tokenizerJson: JSON.stringify(json) }), /^TokenizerError: tokenizer\.json: "normalizer\.normalizers\[0\]\.precompiled_charsmap" is not a base64 string$/);
  json.normalizer.normalizers[0].precompiled_charsmap = charsmap({ 'Ａ': 'a' }) as unknown as number;
  assert.deepEqual(tokenizerFrom({ tokenizerJson: JSON.stringify(json) }).encode('Ａa').pieces, ['a', 'a']);
});

test('a charsmap that makes a text many times longer is refused by its key, as every normalizer is', () => {
  const json = {
    normalizer: { type: 'Precompiled', precompiled_charsmap: charsmap({ a: 'z'.repeat(200) }) },
    model: { type: 'Unigram', unk_id: 0, vocab: [['<unk>', 0], ['z', -1]] },
  };
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  assert.equal(tok.encode('a').ids.length, 200);
  assert.throws(() => tok.encode('a'.repeat(10_000)), /^TokenizerError: tokenizer\.json: the rule at "normalizer" makes a text of 10000 characters longer than 81024: such growth is not supported$/);
});
