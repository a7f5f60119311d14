// `attn run --norms` and `--logit-lens` against the independent PyTorch reference
// (test/reference/analyses.py) on a tiny checkpoint of every decoder family (gpt2, llama MHA and GQA,
// qwen2 with and without windows, phi3, gpt_neox, gemma 1/2/3, qwen3, mistral, llama3 RoPE), in
// float32 (1e-5) and float64 (1e-9), both held to the float64 reference: every value-weighted norm
// ‖α_ij (x_j W_V^h + b_V^h) W_O^h‖ (the tolerance times max(1, ‖v_j W_O^h‖): α itself agrees to the
// tolerance, as the attention weights do), every layer's and position's five lens tokens (p at each
// rank; ids where not near-tied), the last layer's lens equal to the run's own next tokens. First, that
// the reference's hooked pass is each family's own reference forward. The encoders: the norms too, and
// every next-token analysis refused with one line. Without torch this test fails (it never skips).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { attn } from '../../../support/cli.js';
import { writeCheckpoint } from '../../../support/encoder-reference.js';
import { encoderTokenizer } from '../../../support/encoder-tokenizer.js';
import { tempDir } from '../../../support/temp-dir.js';
import { BERT_CONFIG, DISTILBERT_CONFIG, ROBERTA_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { check, compareRanked, DECODERS, generateCases, reference, runJson, TEXT, toleranceOf, Worst, type RunJson, EXACT } from '../../../support/analyses-reference.js';

let cases = new Map<string, string>();
before(() => { cases = generateCases(); });

const PRECISIONS = ['f32', 'f64'] as const;

test('the reference\'s hooked forward is each family\'s own reference forward (every weight, the next tokens\' p)', async () => {
  const runs: { name: string; dtype: 'float32' | 'float64'; ids: number[] }[] = [];
  for (const name of DECODERS) {
    const run = await runJson(cases.get(name)!, 'f64', TEXT);
    for (const dtype of ['float32', 'float64'] as const) runs.push({ name, dtype, ids: run.ids });
  }
  const got = check(runs.map((r) => ({ dir: cases.get(r.name)!, ids: r.ids, dtype: r.dtype })));
  got.forEach((d, i) => {
    // torch_forward.py computes gpt2, llama and qwen2 in float32 only; the families' modules in either.
    const loose = runs[i].dtype === 'float32' || /^(gpt2|llama|qwen2$)/.test(runs[i].name);
    const bound = loose ? 2e-5 : 1e-12;
    assert.ok(d.weight < bound && d.p < bound, `${runs[i].name} ${runs[i].dtype}: ${JSON.stringify(d)}`);
  });
});

for (const precision of PRECISIONS) {
  test(`--norms in ${precision}: every layer, head, query and key as the reference computes ‖α v W_O‖`, async () => {
    const worst = new Worst(toleranceOf(precision), `norms ${precision}`);
    const ours: RunJson[] = [];
    for (const name of DECODERS) ours.push(await runJson(cases.get(name)!, precision, TEXT, '--norms'));
    const theirs = reference(DECODERS.map((name, i) => ({ dir: cases.get(name)!, ids: ours[i].ids, dtype: EXACT, norms: true })));
    DECODERS.forEach((name, c) => {
      const a = ours[c].norms, t = theirs[c].norms!, n = ours[c].ids.length;
      assert.ok(a, `${name}: no "norms" in --json`);
      assert.equal(a.length, ours[c].model.layers, `${name}: layers`);
      a.forEach((layer, l) => {
        assert.equal(layer.length, ours[c].model.heads, `${name}: heads in layer ${l}`);
        layer.forEach((head, h) => {
          assert.equal(head.length, n);
          head.forEach((row, i) => {
            assert.equal(row.length, n);
            row.forEach((v, j) => worst.see(v, t[l][h][i][j], `${name} [${l}][${h}][${i}][${j}]`, Math.max(1, theirs[c].valueNorms![l][h][j])));
          });
        });
      });
      // Not the weights: a norm is the weight times ‖v W_O‖, and a key after the query has 0.
      assert.notDeepEqual(a[0][0][n - 1], ours[c].attention[0][0][n - 1]);
      assert.equal(a[0][0][0][n - 1], 0);
    });
    console.log(`norms, ${precision}: worst scaled difference ${worst.done()}`);
  });

  test(`--logit-lens in ${precision}: each layer's five tokens at every position as the reference's; the last layer is the run's own next`, async () => {
    const worst = new Worst(toleranceOf(precision), `logit lens ${precision}`);
    const ours: RunJson[] = [];
    for (const name of DECODERS) ours.push(await runJson(cases.get(name)!, precision, TEXT, '--logit-lens'));
    const theirs = reference(DECODERS.map((name, i) => ({ dir: cases.get(name)!, ids: ours[i].ids, dtype: EXACT, logitLens: true })));
    DECODERS.forEach((name, c) => {
      const a = ours[c].logitLens, t = theirs[c].logitLens!, n = ours[c].ids.length;
      assert.ok(a, `${name}: no "logitLens" in --json`);
      assert.equal(a.length, ours[c].model.layers, `${name}: layers`);
      a.forEach((layer, l) => {
        assert.equal(layer.length, n, `${name}: positions in layer ${l}`);
        layer.forEach((five, i) => {
          compareRanked(five, t[l][i], worst, `${name} layer ${l} position ${i}`);
          five.forEach((x) => assert.equal(typeof x.token, 'string'));
        });
      });
      assert.deepEqual(a[a.length - 1][n - 1].map((x) => x.id), ours[c].next.map((x) => x.id), `${name}: the last layer's lens at the last position is the run's next`);
      a[a.length - 1][n - 1].forEach((x, r) => assert.ok(Math.abs(x.p - ours[c].next[r].p) <= toleranceOf(precision), `${name}: rank ${r + 1} p ${x.p} vs next ${ours[c].next[r].p}`));
      // The layers do differ (a lens copying the last layer everywhere would pass the line above).
      assert.notDeepEqual(a[0].map((five) => five[0].p), a[a.length - 1].map((five) => five[0].p), `${name}: layer 1's lens equals the last's`);
    });
    console.log(`logit lens, ${precision}: worst scaled difference ${worst.done()}`);
  });
}

/** A tiny encoder folder with a byte-level tokenizer.json (its [CLS] … [SEP] or <s> … </s> added by the post-processor). */
function encoderFolder(config: object, style: 'bert' | 'roberta'): string {
  const tokenizer = encoderTokenizer(style);
  const checkpoint = tinyCheckpoint({ ...config, vocab_size: tokenizer.vocabSize }, 3);
  const dir = writeCheckpoint(join(tempDir('attn-analyses-encoder-'), 'model'), checkpoint as { configText: string; tensors: Map<string, TensorRef> });
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer.text);
  return dir;
}

test('the encoders: --norms as the reference computes them (its heads read the previous layer\'s output); the next-token analyses refused with one line, exit 1', async () => {
  const encoders = [['bert', BERT_CONFIG, 'bert'], ['roberta', ROBERTA_CONFIG, 'roberta'], ['distilbert', DISTILBERT_CONFIG, 'bert']] as const;
  for (const [name, config, style] of encoders) for (const precision of PRECISIONS) {
    const dir = encoderFolder(config, style);
    const worst = new Worst(toleranceOf(precision), `${name} norms ${precision}`);
    const ours = await runJson(dir, precision, TEXT, '--norms');
    const [theirs] = reference([{ dir, ids: ours.ids, dtype: EXACT, norms: true }]);
    assert.ok(ours.norms, 'no "norms" in --json');
    assert.equal(ours.norms.length, theirs.norms!.length);
    ours.norms.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((v, j) => worst.see(v, theirs.norms![l][h][i][j], `[${l}][${h}][${i}][${j}]`, Math.max(1, theirs.valueNorms![l][h][j]))))));
    // An encoder's query sees every key: the norms of later keys are not zero.
    assert.ok(ours.norms[0][0][0][ours.ids.length - 1] > 0);
    console.log(`${name} norms, ${precision}: worst scaled difference ${worst.done()}`);
  }
  const dir = encoderFolder(BERT_CONFIG, 'bert');
  for (const extra of [['--logit-lens'], ['--target', '5'], ['--target', '5', '--contrast', '6'], ['--ablate', '1.1'], ['--target', '5', '--contrast', '6', '--patch-from', TEXT], ['--generate', '2']]) {
    const r = await attn('run', dir, '--text', TEXT, '--json', ...extra);
    assert.equal(r.code, 1, `${extra.join(' ')}: exit ${r.code} ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.doesNotMatch(r.err, /\n\s+at /);
  }
});
