// `attn run` (src/cli/model/run-model.ts) on the encoders' tiny checkpoints (bert-base-uncased's,
// roberta-base's and distilbert-base-uncased's published config keys, sizes shrunk), each folder with
// a byte-level tokenizer.json whose post-processor adds [CLS] … [SEP] (TemplateProcessing) or <s> … </s>
// (RobertaProcessing): --json's "next" is empty, "masked" holds the five guesses at each mask token,
// and every printed weight and guess agrees with the float64 PyTorch reference
// (test/reference/families/bert.py); the summary lists the guesses; a text without a mask token, or
// a checkpoint saved without its head, runs and says why there is no guess, in "note".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { attn } from '../../../support/cli.js';
import { reference, writeCheckpoint } from '../../../support/encoder-reference.js';
import { encoderTokenizer, wordPieceTokenizer } from '../../../support/encoder-tokenizer.js';
import { tempDir } from '../../../support/temp-dir.js';
import { BERT_CONFIG, DISTILBERT_CONFIG, ROBERTA_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const scratch = tempDir('attn-run-encoders-');

interface Guess { id: number; token: string; p: number }
interface RunJson {
  model: { type: string };
  ids: number[]; pieces: string[];
  attention: number[][][][];
  next: Guess[];
  masked?: { position: number; guesses: Guess[] }[];
  note?: string;
}

const CASES = [
  { name: 'bert', config: BERT_CONFIG, style: 'bert' as const, head: 'cls.', prefix: 'bert.' },
  { name: 'roberta', config: ROBERTA_CONFIG, style: 'roberta' as const, head: 'lm_head.', prefix: 'roberta.' },
  { name: 'distilbert', config: DISTILBERT_CONFIG, style: 'bert' as const, head: 'vocab_', prefix: 'distilbert.' },
];

function folder(name: string, config: object, style: 'bert' | 'roberta', drop?: (tensor: string) => boolean): { dir: string; mask: string } {
  const tokenizer = encoderTokenizer(style);
  const checkpoint = tinyCheckpoint({ ...config, vocab_size: tokenizer.vocabSize }, 3);
  if (drop) for (const t of [...checkpoint.tensors.keys()]) if (drop(t)) checkpoint.tensors.delete(t);
  const dir = writeCheckpoint(join(scratch, name), checkpoint as { configText: string; tensors: Map<string, TensorRef> });
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer.text);
  return { dir, mask: tokenizer.mask.content };
}

test('each encoder: --json guesses at every mask token, "next" empty, every weight and guess as the float64 reference computes them', async () => {
  const runs: { dir: string; out: RunJson }[] = [];
  for (const c of CASES) {
    const { dir, mask } = folder(c.name, c.config, c.style);
    const r = await attn('run', dir, '--text', `the cat ${mask} on the ${mask}`, '--json', '--precision', 'f64');
    assert.equal(r.code, 0, `${c.name}: ${r.err}`);
    const out = JSON.parse(r.out) as RunJson;
    assert.equal(out.model.type, c.name);
    assert.deepEqual(out.next, []);
    assert.equal(out.note, undefined);
    const at = out.pieces.flatMap((p, i) => (p === mask ? [i] : []));
    assert.equal(at.length, 2);
    assert.deepEqual(out.masked!.map((g) => g.position), at);
    // The post-processor's tokens are there: [CLS] … [SEP] or <s> … </s>.
    assert.deepEqual([out.pieces[0], out.pieces.at(-1)], c.style === 'roberta' ? ['<s>', '</s>'] : ['[CLS]', '[SEP]']);
    runs.push({ dir, out });
  }
  const want = reference(runs.map(({ dir, out }) => ({ dir, ids: out.ids, at: out.masked!.map((g) => g.position) })), scratch);
  runs.forEach(({ out }, k) => {
    let worst = 0;
    out.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((w, j) => {
      worst = Math.max(worst, Math.abs(w - want[k].attention[l][h][i][j]));
    }))));
    assert.ok(worst < 1e-6, `${CASES[k].name}: a printed (float32) weight differs by ${worst}`);
    let above = 0;
    out.attention[0][0].forEach((row, i) => row.forEach((w, j) => { if (j > i) above += w; }));
    assert.ok(above > 0.1 * out.ids.length, 'weight above the diagonal');
    out.masked!.forEach((g, m) => g.guesses.forEach((t, r) => {
      const theirs = want[k].guesses![m].map((p, id) => ({ id, p })).sort((a, b) => b.p - a.p)[r];
      assert.equal(t.id, theirs.id);
      assert.ok(Math.abs(t.p - theirs.p) < 1e-9, `${CASES[k].name}: guess ${r + 1} at ${g.position}: ${t.p} vs ${theirs.p}`);
    }));
  });
});

test('the summary lists the guesses at each mask token; a text without one says so, exit 0', async () => {
  const { dir, mask } = folder('bert-summary', BERT_CONFIG, 'bert');
  const r = await attn('run', dir, '--text', `the ${mask} sat`);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^masked at 4: "[^"]*" 0\.\d{4}, /m);
  assert.doesNotMatch(r.out, /^next:/m);
  const none = await attn('run', dir, '--text', 'the cat sat', '--json');
  assert.equal(none.code, 0, none.err);
  const out = JSON.parse(none.out) as RunJson;
  assert.deepEqual([out.next, out.masked], [[], []]);
  assert.equal(out.note, 'the text holds no mask token ([MASK] or <mask>), the only place an encoder guesses a token');
});

test('a checkpoint saved without its masked-token head runs its attention and says once, in "note", that it guesses nothing', async () => {
  for (const c of CASES) {
    const { dir, mask } = folder(`${c.name}-headless`, c.config, c.style, (t) => t.startsWith(c.head));
    const r = await attn('run', dir, '--text', `the ${mask} sat`, '--json');
    assert.equal(r.code, 0, `${c.name}: ${r.err}`);
    const out = JSON.parse(r.out) as RunJson;
    assert.deepEqual([out.next, out.masked], [[], undefined]);
    assert.equal(out.note, `this ${c.name} checkpoint was saved without its masked-token head, so it guesses no token`);
    assert.equal(out.attention.length, 2);
    const summary = await attn('run', dir, '--text', `the ${mask} sat`);
    assert.equal(summary.out.split('\n').filter((l) => l.includes('masked-token head')).length, 1);
  }
});

test('bert with its own WordPiece tokenizer.json: [CLS] … [SEP], ## pieces, [UNK], a full matrix and the guess at [MASK], as the reference computes them', async () => {
  const tokenizer = wordPieceTokenizer();
  const checkpoint = tinyCheckpoint({ ...BERT_CONFIG, vocab_size: tokenizer.vocabSize }, 5);
  const dir = writeCheckpoint(join(scratch, 'bert-wordpiece'), checkpoint as { configText: string; tensors: Map<string, TensorRef> });
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer.text);
  const r = await attn('run', dir, '--text', 'The Zebras sat on the [MASK].', '--json', '--precision', 'f64');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as RunJson;
  // Lower-cased, "zebras" spelled from the vocabulary's pieces, "." unknown, the template's tokens around.
  assert.deepEqual(out.pieces, ['[CLS]', 'the', 'ze', '##bra', '##s', 'sat', 'on', 'the', '[MASK]', '[UNK]', '[SEP]']);
  assert.deepEqual(out.ids, [2, 5, 10, 11, 12, 7, 8, 5, 4, 1, 3]);
  assert.deepEqual(out.masked!.map((g) => g.position), [8]);
  const [want] = reference([{ dir, ids: out.ids, at: [8] }], scratch);
  let worst = 0, above = 0;
  out.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((w, j) => {
    worst = Math.max(worst, Math.abs(w - want.attention[l][h][i][j]));
    if (j > i) above += w;
  }))));
  assert.ok(worst < 1e-6, `a printed (float32) weight differs by ${worst}`);
  assert.ok(above > 0, 'every token attends to later tokens too');
  out.masked![0].guesses.forEach((t, rank) => {
    const theirs = want.guesses![0].map((p, id) => ({ id, p })).sort((a, b) => b.p - a.p)[rank];
    assert.equal(t.id, theirs.id);
    assert.ok(Math.abs(t.p - theirs.p) < 1e-9, `guess ${rank + 1}: ${t.p} vs ${theirs.p}`);
    assert.doesNotMatch(t.token, /^##/, 'a continuation piece is shown without its ##');
  });
});
