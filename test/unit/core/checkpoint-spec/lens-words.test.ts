// The words a lens gives a real head's tokens (lensWords in src/core/checkpoint-spec/lens-spec.ts)
// are always ones the spec reader accepts: the spec a lens writes, read back and computed, has no
// error and its input is exactly those words, whatever the tokens are. The family: repeated words,
// words already written with "#" and a number ("a#2" beside two "a"), digits, quotes, backslashes,
// empty tokens, spaces, case variants, unicode and lone surrogates, drawn by a seeded generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { lensSpec, lensWords } from '../../../../src/core/checkpoint-spec/lens-spec.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { fakeHeadLens } from '../../../support/head-lens.js';
import { tempDir } from '../../../support/temp-dir.js';

const PIECES = ['a', 'A', 'a#2', 'a#3', '#', '#1', '2', ' ', '"', '\'', '\\', '', 'é', 'É', '😀', '\ud800', '\u0000', 'the', 'The', ' the', '#2#2', 'a#2#2'];
const token = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 3 }).map((p) => p.join(''));
const tokens = fc.array(token, { minLength: 1, maxLength: 9 });

test('the named case: "a#2", "a", "a" give three distinct words', () => {
  const words = lensWords(['a#2', 'a', 'a']);
  assert.equal(new Set(words).size, 3, words.join(' | '));
  assert.deepEqual(words, ['a#2', 'a#2#2', 'a#3']);
});

test('every token list gives distinct words, and the lens\'s spec reads back without error on exactly those words', () => {
  const dir = tempDir('attn-words-');
  let k = 0;
  fc.assert(fc.property(tokens, fc.boolean(), (list, rotary) => {
    const words = lensWords(list);
    assert.equal(words.length, list.length);
    assert.equal(new Set(words).size, words.length, `distinct: ${JSON.stringify(words)}`);
    // A token unique as it is, and not empty, keeps its text.
    list.forEach((t, i) => { if (t !== '' && list.filter((u) => u.toLowerCase() === t.toLowerCase()).length === 1) assert.equal(words[i], t); });
    const stem = `w${k++}`;
    const lens = fakeHeadLens({ n: list.length, dModel: 4, headDim: 2, rotary, biases: true, tokens: list, seed: k });
    const { spec, tensors } = lensSpec(lens, { tensorFile: `${stem}.safetensors`, model: 'tiny', query: list.length - 1 });
    writeFileSync(join(dir, `${stem}.safetensors`), writeSafetensors(tensors));
    const a = analyze(JSON.stringify(spec, null, 2), { files: folderFiles(dir) });
    assert.deepEqual(a.problems.filter((p) => p.severity === 'error').map((p) => p.message), [], JSON.stringify(list));
    assert.deepEqual(a.spec?.inputs[0].tokens.map((t) => t.text), words);
  }), { seed: 20261130, numRuns: 300 });
});

test('a window of a longer run numbers its repeated words by their place in the run', () => {
  assert.deepEqual(lensWords(['a', 'b', 'a'], 6000), ['a#6001', 'b', 'a#6003']);
  assert.deepEqual(lensWords(['a', 'a']), ['a#1', 'a#2'], 'the whole run counts from 1');
});
