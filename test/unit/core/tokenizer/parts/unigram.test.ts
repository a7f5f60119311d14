// The Unigram model (src/core/tokenizer/unigram.ts): its Viterbi against brute force over every
// segmentation of short words (each character a piece or, when no one-character piece covers it, the unk
// piece at 10 below the lowest score), unk pieces fused, byte_fallback, and its work bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom } from '../../../../../src/core/tokenizer/index.js';
import { unigramModel } from '../../../../../src/core/tokenizer/parts/unigram.js';
import { TokenizerError } from '../../../../../src/core/tokenizer/tokenizer.js';
import { between, seeded } from '../../../../support/random.js';

/** Every best segmentation, by trying them all (pieces with "?" for an unk character). */
function bruteForce(vocab: [string, number][], word: string): { score: number; all: string[][] } {
  const score = new Map<string, number>();
  for (const [p, s] of vocab) score.set(p, s);
  const unkScore = Math.min(...vocab.map(([, s]) => s)) - 10;
  const chars = [...word];
  const found: { score: number; pieces: string[] }[] = [];
  const walk = (at: number, total: number, pieces: string[]) => {
    if (at === chars.length) { found.push({ score: total, pieces: [...pieces] }); return; }
    for (let end = at + 1; end <= chars.length; end++) {
      const piece = chars.slice(at, end).join('');
      const s = score.get(piece);
      if (s !== undefined) walk(end, total + s, [...pieces, piece]);
    }
    if (!score.has(chars[at])) walk(at + 1, total + unkScore, [...pieces, '?']);
  };
  walk(0, 0, []);
  const most = Math.max(...found.map((f) => f.score));
  return { score: most, all: found.filter((f) => Math.abs(f.score - most) < 1e-9).map((f) => f.pieces) };
}

const LETTERS = ['a', 'b', 'c', 'd', 'é', '🙂'];

test('random words over random vocabularies: the Viterbi path is the best of every segmentation', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rand = seeded(seed);
    const piece = () => Array.from({ length: between(rand, 1, 3) }, () => LETTERS[between(rand, 0, LETTERS.length - 1)]).join('');
    const vocab: [string, number][] = [['<unk>', 0]];
    const seen = new Set(['<unk>']);
    for (let i = 0; i < between(rand, 2, 25); i++) {
      const p = piece();
      if (!seen.has(p)) { seen.add(p); vocab.push([p, -1 - rand() * 10]); }
    }
    const model = unigramModel({ vocab, unk_id: 0 });
    for (let k = 0; k < 10; k++) {
      const word = Array.from({ length: between(rand, 1, 8) }, () => LETTERS[between(rand, 0, LETTERS.length - 1)]).join('');
      // Neighbouring unk pieces are one piece, "<unk>" as the vocabulary writes it; ties may go either way here (the next test pins them).
      const fused = bruteForce(vocab, word).all.map((pieces) => JSON.stringify(pieces.reduce<string[]>((acc, p) => (p === '?' && acc[acc.length - 1] === '<unk>' ? acc : [...acc, p === '?' ? '<unk>' : p]), [])));
      const ours = JSON.stringify(model([word]));
      assert.ok(fused.includes(ours), `seed ${seed}, word ${word}: ${ours} is not among the best, ${fused.join(' ')}`);
    }
  }
});

test('ties go to the path whose last piece starts first, as Rust keeps the first path found to each end', () => {
  // "ab" alone or "a" + "b": both score -2.
  assert.deepEqual(unigramModel({ vocab: [['<unk>', 0], ['a', -1], ['b', -1], ['ab', -2]], unk_id: 0 })(['ab']), ['ab']);
  assert.deepEqual(unigramModel({ vocab: [['<unk>', 0], ['a', -1], ['b', -1], ['ab', -2.5]], unk_id: 0 })(['ab']), ['a', 'b']);
  // With no "a": "aa" then an unk "a" ties with an unk "a" then "aa"; the path whose last piece starts first wins.
  assert.deepEqual(unigramModel({ vocab: [['<unk>', 0], ['aa', -1]], unk_id: 0 })(['aaa']), ['<unk>', 'aa']);
});

test('byte_fallback writes a fused unknown run as its UTF-8 bytes when the vocabulary has them all, else the unk piece', () => {
  const bytes: [string, number][] = Array.from({ length: 256 }, (_, b) => [`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, -100]);
  const vocab: [string, number][] = [['<unk>', 0], ['a', -1], ...bytes];
  assert.deepEqual(unigramModel({ vocab, unk_id: 0, byte_fallback: true })(['aéz']), ['a', '<0xC3>', '<0xA9>', '<0x7A>']);
  assert.deepEqual(unigramModel({ vocab, unk_id: 0, byte_fallback: false })(['aéz']), ['a', '<unk>']);
  assert.deepEqual(unigramModel({ vocab: [['<unk>', 0], ['a', -1], ['<0xC3>', -5]], unk_id: 0, byte_fallback: true })(['aé']), ['a', '<unk>']);
  assert.throws(() => unigramModel({ vocab: [['a', -1]] })(['ab']), /^TokenizerError: tokenizer\.json: the text has a character that no piece of the Unigram vocabulary covers, and "model\.unk_id" is not set$/);
});

test('a vocabulary made to cost much per character is refused by its key as soon as it does, not after minutes', () => {
  // Pieces "a", "aa", … up to 1,000 a's: every start walks 1,000 steps into the trie.
  const vocab: [string, number][] = [['<unk>', 0], ...Array.from({ length: 1000 }, (_, i): [string, number] => ['a'.repeat(i + 1), -1 - i])];
  const model = unigramModel({ vocab, unk_id: 0 });
  const t0 = performance.now();
  assert.deepEqual(model(['a'.repeat(100)]), ['a'.repeat(100)]);
  assert.throws(() => model(['a'.repeat(1_000_000)]), (err: unknown) => err instanceof TokenizerError && /^tokenizer\.json: the Unigram model \(at "model\.vocab"\) took over 128 steps a character on words of 1,000,000 characters: such a vocabulary is not supported$/.test(err.message));
  assert.ok(performance.now() - t0 < 5_000, `${Math.round(performance.now() - t0)} ms`);
});

test('a T5-style file end to end: WhitespaceSplit, Metaspace, Unigram with byte fallback, </s> added', () => {
  const bytes: [string, number][] = Array.from({ length: 256 }, (_, b) => [`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, -50]);
  const vocab: [string, number][] = [['<pad>', 0], ['</s>', 0], ['<unk>', 0], ['\u2581', -2], ['\u2581the', -3], ['\u2581cat', -4], ['s', -3], ['\u2581ca', -5], ['t', -4], ...bytes];
  const json = {
    added_tokens: [{ id: 0, content: '<pad>', special: true }, { id: 1, content: '</s>', special: true }, { id: 2, content: '<unk>', special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true }] },
    post_processor: { type: 'TemplateProcessing', single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }], special_tokens: { '</s>': { id: '</s>', ids: [1], tokens: ['</s>'] } } },
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 2, byte_fallback: true, vocab },
  };
  const t5 = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  const e = t5.encode('the  cats é');
  assert.deepEqual(e.pieces, ['\u2581the', '\u2581cat', 's', '\u2581', '<0xC3>', '<0xA9>', '</s>']);
  assert.deepEqual(e.ids, [4, 5, 6, 3, 9 + 0xc3, 9 + 0xa9, 1]);
  // The file's decoder has no ByteFallback: a byte piece reads as itself, as the Rust library decodes it.
  assert.deepEqual(e.ids.map((id) => t5.decodeOne(id)), [' the', ' cat', 's', ' ', '<0xC3>', '<0xA9>', '</s>']);
  assert.equal(t5.vocabSize, vocab.length);
});
