// attn run --text-file with --max-tokens (src/cli/model/run-model.ts): only as much of the text is
// tokenized as the first N ids take, so an 8 MB text for 8 ids ends at once with the same tokens as
// the text's beginning alone gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attn } from '../../../support/cli.js';
import { tempDir } from '../../../support/temp-dir.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';

test('an 8 MB --text-file with --max-tokens 8: the first 8 tokens, tokenized from a prefix', async () => {
  // Before: the whole 8 MB was tokenized to keep 8 ids (40–120 s on a real vocabulary).
  const dir = tempDir();
  const model = writeTinyGpt2(join(dir, 'model'));
  const file = join(dir, 'long.txt');
  const text = 'The cat sat on the mat. '.repeat(333_000);
  writeFileSync(file, text);
  const long = await attn('run', model, '--text-file', file, '--max-tokens', '8', '--json');
  assert.equal(long.code, 0, long.err);
  const short = await attn('run', model, '--text', text.slice(0, 200), '--max-tokens', '8', '--json');
  assert.equal(short.code, 0, short.err);
  const [a, b] = [long, short].map((r) => JSON.parse(r.out) as { ids: number[]; tokens: string[]; timings: { tokenizeMs: number } });
  assert.equal(a.ids.length, 8);
  assert.deepEqual(a.ids, b.ids);
  assert.deepEqual(a.tokens, b.tokens);
  // The tokenizing of 8 ids from 8 MB costs what it costs from 200 characters, give or take the prefixes.
  assert.ok(a.timings.tokenizeMs < 2000, `tokenize ${a.timings.tokenizeMs} ms`);
});

test('an 8 MB --text-file without --max-tokens is refused past the context length after tokenizing one id more than it', async () => {
  // Before: the whole 8 MB was tokenized (11 s and 700 MB for GPT-2's real tokenizer) to learn the text was too long.
  const dir = tempDir();
  const model = writeTinyGpt2(join(dir, 'model'));
  const file = join(dir, 'long.txt');
  writeFileSync(file, 'The cat sat on the mat. '.repeat(333_000));
  const t0 = performance.now();
  const r = await attn('run', model, '--text-file', file);
  assert.equal(r.code, 1);
  assert.match(r.err, /^the text is over \d+ tokens, more than the model's context length of \d+: use --max-tokens to keep the first ones$/);
  assert.ok(performance.now() - t0 < 5000, `${Math.round(performance.now() - t0)} ms`);
});
