// The tokenizer against an independent reading of tokenizer.json (test/support/bpe-reference.py: Python
// and its `regex` module, no code shared with @huggingface/tokenizers) on fixtures with thousands of
// generated merges, over fixed texts (Unicode, runs of spaces, tabs and newlines, contractions, digits,
// special tokens) and 150 seeded random ones: the ids must be identical, text for text.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import { ROOT } from '../../../support/paths.js';
import { between, seeded } from '../../../support/random.js';
import { tinyTokenizer } from '../../../support/tiny-tokenizer.js';
import { llama2Style, llama3Style } from '../../../support/tokenizer-fixtures.js';

const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import regex'], { encoding: 'utf8' }).status === 0);
const REFERENCE = path.join(ROOT, 'test', 'support', 'bpe-reference.py');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const FIXED = [
  '', 'The cat sat on the mat. The cat', 'a   b', 'a \t\tb', 'x\n\n\ny', 'x \n y', '   leading', 'trailing   ', 'tab\tin\tline\n',
  "it's we're I've you'd they'll I'm don't IT'S WE'RE", '2024 1234567 3.14159 $1,000', '(a+b)*c == 42;', 'naïve café résumé',
  'e\u0301 a\u0308 n\u0303', '日本語のテキスト 中文', '🙂 👍🏽 🇫🇷 👨‍👩‍👧', 'Привет мир', 'مرحبا', 'ā́ ǖ', '<|endoftext|>', 'a<|endoftext|>b',
  ' <|endoftext|> ', '<|begin_of_text|>x', '\r\n\r\n', 'the then there these thesis', 'zzzzzzzzzzzzzzzzzzzz', 'aaaaaaaaaaa bbbbbbbbb',
];
const ALPHABET = [...'abcdefghijklmnopqrstuvwxyz', ...'ABCXYZ', ' ', ' ', ' ', ' ', '\t', '\n', '\r', "'", 's', 't', '0', '1', '9', '.', ',', '!',
  '-', 'é', 'e\u0301', '日', '本', '🙂', '€', '<|endoftext|>', '▁', '\u00a0'];

function randomTexts(seed: number, count: number): string[] {
  const rand = seeded(seed);
  return Array.from({ length: count }, () => Array.from({ length: between(rand, 0, 40) }, () => ALPHABET[between(rand, 0, ALPHABET.length - 1)]).join(''));
}

function compare(name: string, json: unknown): void {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(json));
  const texts = [...FIXED, ...randomTexts(name.length * 7919, 150)];
  const run = spawnSync(python as string, [REFERENCE], { input: JSON.stringify({ tokenizer: file, texts }), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr);
  const expected = JSON.parse(run.stdout) as number[][];
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  texts.forEach((text, i) => assert.deepEqual(tok.encode(text).ids, expected[i], `${name}: ${JSON.stringify(text)}`));
}

test('GPT-2 style, 50,257 ids (50,000 generated merges): the same ids as the Python reading', () => {
  assert.ok(python, 'no python3 with the regex module: install Debian\'s python3-regex (scripts/setup.mjs does for npm test)');
  compare('gpt2', tinyTokenizer({ vocabSize: 50257 }).json);
});

test('Llama 3 style, 4,096 ids (Split regex, BOS): the same ids as the Python reading', () => {
  assert.ok(python, 'no python3 with the regex module: install Debian\'s python3-regex (scripts/setup.mjs does for npm test)');
  compare('llama3', llama3Style([['Ċ', 'Ċ'], ['1', '2'], ["'", 'S']], 4096).json);
});

/** SentencePiece-style pieces: ▁ and letters, then merges joining each earlier piece with one more letter. */
function sentencePieceMerges(count: number): { pieces: string[]; merges: [string, string][] } {
  const letters = ['▁', ...'abcdefghijklmnopqrstuvwxyzé', '日'];
  const pieces = [...letters];
  const merges: [string, string][] = [];
  const known = new Set(pieces);
  for (let i = 0; merges.length < count; i++) {
    for (const letter of letters) {
      if (merges.length >= count || known.has(pieces[i] + letter)) continue;
      merges.push([pieces[i], letter]);
      pieces.push(pieces[i] + letter);
      known.add(pieces[i] + letter);
    }
  }
  return { pieces, merges };
}

for (const layout of ['normalizer', 'metaspace'] as const) {
  test(`Llama 2 style (${layout}), 2,000 merges with byte fallback: the same ids as the Python reading`, () => {
  assert.ok(python, 'no python3 with the regex module: install Debian\'s python3-regex (scripts/setup.mjs does for npm test)');
    const { pieces, merges } = sentencePieceMerges(2000);
    compare(`llama2-${layout}`, llama2Style(pieces, merges, layout));
  });
}
