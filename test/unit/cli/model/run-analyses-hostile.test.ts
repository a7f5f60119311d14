// `attn run`'s analysis flags (src/cli/model/analysis-flags.ts, run-model.ts) given what a hostile or
// careless user gives: heads that are not heads or are named twice, token arguments that are empty,
// past the vocabulary, added tokens or pages long, a text to patch from that is longer, shorter,
// empty, past the context or the same, generation past a learned context, the encoders, and --json
// past its budget with the norms. Each refusal is one line with exit 2 (the command line) or 1 (the
// text or the model); what runs prints no NaN or Infinity (JSON's null) anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { jsonRefusal } from '../../../../src/cli/model/run-model.js';
import { attn } from '../../../support/cli.js';
import { writeCheckpoint as writeEncoder } from '../../../support/encoder-reference.js';
import { encoderTokenizer } from '../../../support/encoder-tokenizer.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { BERT_CONFIG, tinyCheckpoint, writeCheckpoint } from '../../../support/tiny-checkpoint.js';

const INDUCTION = join(ROOT, 'examples', 'models', 'induction-gpt2');
const TEXT = 'the cat sat on the mat. the cat';
const scratch = tempDir('attn-run-analyses-hostile-');

async function refused(code: number, pattern: RegExp, ...argv: string[]) {
  const r = await attn('run', ...argv);
  const asked = argv.join(' ').slice(0, 200);
  assert.equal(r.code, code, `${asked}: ${r.err}`);
  assert.equal(r.out, '');
  assert.match(r.err, pattern, asked);
  assert.ok(!r.err.includes('\n') && !/\bat .+:\d+:\d+/.test(r.err), `one line, no stack: ${r.err}`);
}

/** Every number of a JSON text, at any depth, is a number (JSON.stringify prints NaN and Infinity as null). */
function assertNoNull(value: unknown, where = '$'): void {
  assert.notEqual(value, null, `${where} is null`);
  if (Array.isArray(value)) value.forEach((v, i) => assertNoNull(v, `${where}[${i}]`));
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value as object)) if (k !== 'contrast') assertNoNull(v, `${where}.${k}`);
}

test('--ablate: negative, blank, past the model, too many and twice-named heads are usage errors (exit 2), in one line', async () => {
  const run = (heads: string) => ['run', INDUCTION, '--text', TEXT, '--ablate', heads];
  await refused(2, /--ablate: "-1\.1" is not a head: write L\.H/, ...run('-1.1').slice(1));
  await refused(2, /--ablate: "" is not a head/, ...run('').slice(1));
  await refused(2, /--ablate: "" is not a head/, ...run(' , ').slice(1));
  await refused(2, /--ablate: 999999\.1: layer 999999 is not one of the model's layers 1 to 2/, ...run('999999.1').slice(1));
  await refused(2, /--ablate: 1\.3: head 3 is not one of each layer's heads 1 to 2/, ...run('1.3').slice(1));
  await refused(2, /--ablate: "1\.1\.1" is not a head/, ...run('1.1.1').slice(1));
  await refused(2, /--ablate: 5001 heads named, more than the model's 4/, ...run(Array(5001).fill('1.1').join(',')).slice(1));
  await refused(2, /--ablate: 02\.1 names head 2\.1 again \(2\.1\): name each head once/, ...run('2.1,02.1').slice(1));
  await refused(2, /--ablation says how to ablate the heads --ablate names/, INDUCTION, '--text', TEXT, '--ablation', 'mean');
  await refused(2, /--ablation/, INDUCTION, '--text', TEXT, '--ablate', '1.1', '--ablation', 'half');
});

test('--generate: not a whole number, past 1024 or past a learned context are refused; 0 says it generated none', async () => {
  for (const n of ['-1', '1e2', '2.5', '', '99999999999999999999', '1025']) {
    await refused(2, /--generate takes a whole number of tokens from 0 to 1024/, INDUCTION, '--text', TEXT, '--generate', n);
  }
  // 11 tokens + 53 = the context of 64; one more is refused before any is generated.
  await refused(1, /^11 tokens and 54 generated are more than the model's context length of 64$/, INDUCTION, '--text', TEXT, '--generate', '54');
  const fits = await attn('run', INDUCTION, '--text', TEXT, '--generate', '53', '--json');
  assert.equal(fits.code, 0, fits.err);
  assert.equal((JSON.parse(fits.out) as { ids: number[] }).ids.length, 64);
  const none = await attn('run', INDUCTION, '--text', TEXT, '--generate', '0');
  assert.equal(none.code, 0, none.err);
  assert.match(none.out, /^generated: no tokens$/m);
  // --max-tokens keeps the first tokens of the text; the generated ones come after them.
  const kept = await attn('run', INDUCTION, '--text', TEXT, '--generate', '60', '--max-tokens', '4', '--json');
  assert.equal(kept.code, 0, kept.err);
  assert.equal((JSON.parse(kept.out) as { ids: number[] }).ids.length, 64);
});

test('--target and --contrast: empty, past the vocabulary, pages long are refused (exit 1); an added token\'s text is its id', async () => {
  await refused(1, /^the target token is empty: give a token as text/, INDUCTION, '--text', TEXT, '--target', '');
  await refused(1, /^the contrast token is empty/, INDUCTION, '--text', TEXT, '--target', ' sat', '--contrast', '');
  await refused(1, /^the target token 363 is not a token id of this model \(its vocabulary has 363 ids, 0 to 362\)$/, INDUCTION, '--text', TEXT, '--target', '363');
  await refused(1, /^the target token 99999999999999999999999 is not a token id/, INDUCTION, '--text', TEXT, '--target', '99999999999999999999999');
  await refused(1, /^the target token "a{80}"… is 64 or more tokens \("a" "a" "a" "a" "a" "a" "a" "a" …\), not one/, INDUCTION, '--text', TEXT, '--target', 'a'.repeat(100_000));
  await refused(2, /--contrast needs --target/, INDUCTION, '--text', TEXT, '--contrast', ' sat');
  const added = await attn('run', INDUCTION, '--text', TEXT, '--target', '<|endoftext|>', '--contrast', '000362', '--json');
  assert.equal(added.code, 0, added.err);
  const a = (JSON.parse(added.out) as { attribution: { target: number; contrast: number; total: number } }).attribution;
  assert.deepEqual([a.target, a.contrast, a.total], [362, 362, 0]);
});

test('--patch-from: more or fewer tokens, empty, past the context, or the same logit difference are refused naming that text', async () => {
  const patch = (from: string, ...more: string[]) => [INDUCTION, '--text', TEXT, '--target', ' sat', '--contrast', ' cat', '--patch-from', from, ...more];
  await refused(1, /^the text to patch from is 4 tokens and the text is 11: patching needs two texts of the same number of tokens$/, ...patch('the cat'));
  await refused(1, /^the text to patch from is 13 tokens and the text is 11/, ...patch(`${TEXT} sat on`));
  await refused(1, /^the text to patch from has no tokens to run$/, ...patch(''));
  await refused(1, /^the text to patch from is over 64 tokens, more than the model's context length of 64: use --max-tokens/, ...patch(' the cat'.repeat(40)));
  await refused(1, /^the text and the text to patch from give the same logit difference \(.+\), so patching has nothing to restore/, ...patch(TEXT));
  // --max-tokens cuts both: the first 3 tokens of each are the same.
  await refused(1, /give the same logit difference/, ...patch('the cat sat on the mat. the mat', '--max-tokens', '3'));
  await refused(2, /--patch-from needs --target and --contrast/, INDUCTION, '--text', TEXT, '--target', ' sat', '--patch-from', TEXT);
  await refused(2, /--generate cannot be combined with --patch-from/, ...patch(TEXT, '--generate', '2'));
});

test('every analysis at once, in both precisions: --json holds no null (no NaN or Infinity) anywhere', async () => {
  for (const precision of ['f32', 'f64']) {
    for (const mode of ['zero', 'mean']) {
      const r = await attn('run', INDUCTION, '--text', TEXT, '--precision', precision, '--json', '--norms', '--logit-lens', '--target', ' sat', '--contrast', ' cat',
        '--ablate', '2.1,1.2', '--ablation', mode, '--patch-from', 'the cat sat on the mat. the mat');
      assert.equal(r.code, 0, r.err);
      assert.ok(!/\bnull\b|NaN|Infinity/.test(r.out.replace(/"contrast":null/g, '')), `${precision} ${mode}`);
      const json = JSON.parse(r.out) as Record<string, unknown>;
      for (const key of ['norms', 'logitLens', 'attribution', 'ablation', 'patching']) assert.ok(key in json, key);
      assertNoNull(json);
    }
  }
  const generated = await attn('run', INDUCTION, '--text', TEXT, '--json', '--generate', '5', '--target', '7');
  assert.equal(generated.code, 0, generated.err);
  assertNoNull(JSON.parse(generated.out));
});

test('an encoder, with or without its head, runs --norms and refuses, in one line, each analysis that reads a next token', async () => {
  const tokenizer = encoderTokenizer('bert');
  const dir = writeEncoder(join(scratch, 'bert'), tinyCheckpoint({ ...BERT_CONFIG, vocab_size: tokenizer.vocabSize }, 3) as { configText: string; tensors: Map<string, TensorRef> });
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer.text);
  const text = 'the cat [MASK] on the mat';
  for (const flags of [['--logit-lens'], ['--target', ' cat'], ['--ablate', '1.1'], ['--generate', '2'], ['--target', '5', '--contrast', '6', '--patch-from', 'the cat [MASK] on the cat']]) {
    await refused(1, /^this bert model is an encoder: it predicts no next token, so .+ cannot be computed \(the value-weighted norms can\)$/, dir, '--text', text, ...flags);
  }
  const r = await attn('run', dir, '--text', text, '--norms', '--json');
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out) as { norms: number[][][][]; ids: number[] };
  assert.equal(json.norms.length, 2);
  assert.equal(json.norms[0][0].length, json.ids.length);
  assertNoNull(json);
  // Saved without its masked-token head: the norms need none, and the note says why there is no guess.
  const headless = tinyCheckpoint({ ...BERT_CONFIG, vocab_size: tokenizer.vocabSize }, 3);
  for (const name of [...headless.tensors.keys()]) if (name.startsWith('cls.')) headless.tensors.delete(name);
  const bare = writeEncoder(join(scratch, 'bert-headless'), headless as { configText: string; tensors: Map<string, TensorRef> });
  writeFileSync(join(bare, 'tokenizer.json'), tokenizer.text);
  const normsOnly = await attn('run', bare, '--text', text, '--norms', '--json');
  assert.equal(normsOnly.code, 0, normsOnly.err);
  const parsed = JSON.parse(normsOnly.out) as { norms: number[][][][]; note: string };
  assert.equal(parsed.norms.length, 2);
  assert.match(parsed.note, /saved without its masked-token head/);
  await refused(1, /^this bert model is an encoder: it predicts no next token, so the logit lens cannot be computed/, bare, '--text', text, '--logit-lens');
});

test('--json with --norms prints twice the numbers: its budget names the most tokens that fit both', async () => {
  // A GPT-2 of 2 layers × 4 heads with 2,048 positions and the induction example's tokenizer: " cat" is one token.
  const dir = join(scratch, 'long-gpt2');
  mkdirSync(dir, { recursive: true });
  const { configText, tensors } = tinyCheckpoint({ model_type: 'gpt2', n_embd: 16, n_head: 4, n_layer: 2, n_positions: 2048, vocab_size: 363 }, 2);
  writeCheckpoint(dir, configText, tensors);
  copyFileSync(join(INDUCTION, 'tokenizer.json'), join(dir, 'tokenizer.json'));
  const text = ' cat'.repeat(1001);
  await refused(1, /^attn run --json's output of 2 × 2 layers × 4 heads × 1001² weights and norms needs 16\.0 million numbers, over the budget of 16\.0 million: use --max-tokens 1000 or fewer/, dir, '--text', text, '--json', '--norms');
  assert.equal(jsonRefusal(2, 4, 1000, 2), undefined);
  // The generated tokens are printed too: the number named is of the text's tokens, 1,000 less 20.
  await refused(1, /× 1010² weights and norms needs .*: use --max-tokens 980 or fewer, or --out FILE\.safetensors without --json$/, dir, '--text', ' cat'.repeat(990), '--json', '--norms', '--generate', '20');
  // Without the norms the same text prints (8 million numbers): refused only past 1,414 tokens.
  assert.equal(jsonRefusal(2, 4, 1001), undefined);
});
