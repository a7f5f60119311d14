// `attn run --ablate L.H[,L.H…] [--ablation zero|mean]` and `--patch-from TEXT` against the independent
// PyTorch reference (test/reference/analyses.py) on a tiny checkpoint of every decoder family, in
// float32 (1e-5) and float64 (1e-9), both held to the float64 reference: the ablated run's five next
// tokens, its logit difference and the unablated one (mean ablation: each head's mean over the
// positions of the ablated run itself); every patching score (m_patched − m_corrupted) /
// (m_clean − m_corrupted) (in float32 the tolerance is what a logit difference's 1e-5 becomes in the
// ratio). Invariants: mean ablation of a one-token text changes nothing; on a 1-layer, 1-head
// attention-only GPT-2 (its MLP all zeros; written here, no Python) with two texts that differ only
// before the last token, patching the head gives exactly 1. The command lines it cannot read: exit 2,
// one line; texts it cannot patch: exit 1, one line.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { attn } from '../../../support/cli.js';
import { tempDir } from '../../../support/temp-dir.js';
import { tinyCheckpoint, writeCheckpoint } from '../../../support/tiny-checkpoint.js';
import { tinyTokenizerJson } from '../../../support/tiny-tokenizer.js';
import { compareRanked, CORRUPTED, DECODERS, EARLIER, generateCases, reference, runJson, TEXT, toleranceOf, Worst, type RunJson, EXACT } from '../../../support/analyses-reference.js';

let cases = new Map<string, string>();
before(() => { cases = generateCases(); });

const PRECISIONS = ['f32', 'f64'] as const;

for (const precision of PRECISIONS) {
  test(`--ablate in ${precision}, zero and mean, with and without a target: the next tokens and logit differences as the reference's`, async () => {
    const worst = new Worst(toleranceOf(precision), `ablation ${precision}`);
    type Case = { name: string; heads: string; mode: 'zero' | 'mean'; target?: number; contrast?: number | null; ours: RunJson };
    const runs: Case[] = [];
    for (const name of DECODERS) {
      const dir = cases.get(name)!;
      const first = await runJson(dir, precision, TEXT);
      const [target, contrast] = [first.next[0].id, first.next[1].id];
      for (const mode of ['zero', 'mean'] as const) {
        // Heads of two layers; two heads of one layer (mean: each its own mean).
        for (const heads of ['1.1,2.2', '2.1,2.2']) {
          runs.push({ name, heads, mode, target, contrast, ours: await runJson(dir, precision, TEXT, '--ablate', heads, '--ablation', mode, '--target', String(target), '--contrast', String(contrast)) });
        }
        runs.push({ name, heads: '1.2', mode, ours: await runJson(dir, precision, TEXT, '--ablate', '1.2', '--ablation', mode) });
      }
    }
    const theirs = reference(runs.map((r) => ({
      dir: cases.get(r.name)!, ids: r.ours.ids, dtype: EXACT, target: r.target, contrast: r.contrast,
      ablate: r.heads.split(',').map((lh) => lh.split('.').map((v) => Number(v) - 1) as [number, number]), ablation: r.mode,
    })));
    runs.forEach((r, i) => {
      const a = r.ours.ablation, t = theirs[i].ablation!;
      const where = `${r.name} --ablate ${r.heads} ${r.mode}${r.target === undefined ? '' : ` ${r.target}−${r.contrast}`}`;
      assert.ok(a, `${where}: no "ablation" in --json`);
      assert.deepEqual(a.heads, r.heads.split(','));
      assert.equal(a.mode, r.mode);
      compareRanked(a.next, t.next, worst, `${where} next`);
      // Relative to the logits' size: a difference of two logits of 15 keeps the rounding of 15s.
      worst.see(a.logitDiff, t.logitDiff, `${where} logitDiff`, t.logitScale);
      worst.see(a.baseLogitDiff, t.baseLogitDiff, `${where} baseLogitDiff`, t.logitScale);
    });
    // Ablation changes something somewhere (a run that ignored --ablate would agree only with base).
    assert.ok(runs.some((r) => Math.abs(r.ours.ablation!.logitDiff - r.ours.ablation!.baseLogitDiff) > 1e-3));
    // And the modes differ (a run that read --ablation mean as zero would not).
    assert.ok(runs.filter((r) => r.mode === 'mean').some((r) => {
      const zero = runs.find((s) => s.name === r.name && s.heads === r.heads && s.mode === 'zero')!;
      return Math.abs(r.ours.ablation!.logitDiff - zero.ours.ablation!.logitDiff) > 1e-3;
    }));
    console.log(`ablation, ${precision}: worst scaled difference ${worst.done()}`);
  });

  test(`--patch-from in ${precision}: every layer's and head's score as the reference's`, async () => {
    const worst = new Worst(toleranceOf(precision), `patching ${precision}`);
    const runs: { name: string; target: number; contrast: number; ours: RunJson; corrupted: RunJson }[] = [];
    for (const name of DECODERS) {
      const dir = cases.get(name)!;
      const first = await runJson(dir, precision, TEXT);
      const [target, contrast] = [first.next[0].id, first.next[1].id];
      const corrupted = await runJson(dir, precision, CORRUPTED);
      runs.push({ name, target, contrast, corrupted, ours: await runJson(dir, precision, TEXT, '--target', String(target), '--contrast', String(contrast), '--patch-from', CORRUPTED) });
    }
    const theirs = reference(runs.map((r) => ({ dir: cases.get(r.name)!, ids: r.ours.ids, dtype: EXACT, target: r.target, contrast: r.contrast, patchFrom: r.corrupted.ids })));
    runs.forEach((r, i) => {
      const p = r.ours.patching, t = theirs[i];
      assert.ok(p, `${r.name}: no "patching" in --json`);
      assert.equal(p.length, r.ours.model.layers);
      // A logit difference's error ε (relative to the logits' size) becomes ε (1 + |score|) / |m_clean − m_corrupted| in a score.
      const m = t.patchingScale!;
      const gap = Math.abs(t.mClean! - t.mCorrupted!);
      assert.ok(gap > 1e-3, `${r.name}: the texts' logit differences are ${t.mClean} and ${t.mCorrupted}`);
      p.forEach((row, l) => {
        assert.equal(row.length, r.ours.model.heads);
        row.forEach((score, h) => worst.see(score, t.patching![l][h], `${r.name} [${l}][${h}]`, precision === 'f64' ? 1 : (1 + Math.abs(t.patching![l][h]!)) * m / gap));
      });
    });
    console.log(`patching, ${precision}: worst scaled difference ${worst.done()}`);
  });
}

test('mean ablation of a one-token text changes nothing (a head\'s mean over one position is its output), in every family', async () => {
  for (const name of DECODERS) {
    const dir = cases.get(name)!;
    const plain = await runJson(dir, 'f64', ' cat');
    assert.equal(plain.ids.length, 1, `${name}: " cat" is ${plain.ids.length} tokens`);
    const run = await runJson(dir, 'f64', ' cat', '--ablate', '1.1,1.2,2.1', '--ablation', 'mean');
    const a = run.ablation!;
    assert.ok(Math.abs(a.logitDiff - a.baseLogitDiff) < 1e-9, `${name}: ${a.logitDiff} vs ${a.baseLogitDiff}`);
    assert.deepEqual(a.next.map((t) => t.id), plain.next.map((t) => t.id), `${name}: the next tokens`);
    a.next.forEach((t, r) => assert.ok(Math.abs(t.p - plain.next[r].p) < 1e-9, `${name}: rank ${r + 1}`));
    // Zero ablation of the same heads does change it.
    const zero = (await runJson(dir, 'f64', ' cat', '--ablate', '1.1,1.2,2.1', '--ablation', 'zero')).ablation!;
    assert.ok(Math.abs(zero.logitDiff - zero.baseLogitDiff) > 1e-9, `${name}: zero ablation changed nothing`);
  }
});

/**
 * A 1-layer, 1-head GPT-2 whose MLP weights and biases are all zero (attention only), random otherwise,
 * with a byte-level tokenizer: written by the tests themselves, no Python.
 */
function attentionOnly(): string {
  const { configText, tensors } = tinyCheckpoint({ model_type: 'gpt2', n_embd: 16, n_head: 1, n_layer: 1, n_positions: 32, vocab_size: 300 }, 5);
  for (const [name, t] of tensors) {
    if (!name.includes('.mlp.')) continue;
    const count = t.shape.reduce((x, y) => x * y, 1);
    tensors.set(name, { ...t, source: memorySource(`${name}.zeros`, new Uint8Array(count * 4)), offset: 0 });
  }
  const dir = writeCheckpoint(join(tempDir('attn-attention-only-'), 'gpt2'), configText, tensors);
  writeFileSync(join(dir, 'tokenizer.json'), tinyTokenizerJson(300));
  return dir;
}

test('a 1-layer, 1-head attention-only model, two texts that differ only before the last token: patching the head gives 1 within 1e-9', async () => {
  const dir = attentionOnly();
  const first = await runJson(dir, 'f64', TEXT);
  const earlier = await runJson(dir, 'f64', EARLIER);
  assert.equal(earlier.ids.length, first.ids.length);
  assert.equal(earlier.ids.at(-1), first.ids.at(-1));
  assert.notDeepEqual(earlier.ids, first.ids);
  const tokens = ['--target', String(first.next[0].id), '--contrast', String(first.next[1].id)];
  const run = await runJson(dir, 'f64', TEXT, ...tokens, '--patch-from', EARLIER);
  assert.deepEqual([run.model.layers, run.model.heads], [1, 1]);
  assert.ok(Math.abs(run.patching![0][0] - 1) < 1e-9, `patching[0][0] = ${run.patching![0][0]}`);
  // The texts' logit differences (each run's unablated one) do differ: the 1 is not a 0/0 read as 1.
  const clean = (await runJson(dir, 'f64', TEXT, ...tokens, '--ablate', '1.1')).ablation!.baseLogitDiff;
  const corrupted = (await runJson(dir, 'f64', EARLIER, ...tokens, '--ablate', '1.1')).ablation!.baseLogitDiff;
  assert.ok(Math.abs(clean - corrupted) > 1e-6, `m ${clean} and ${corrupted}`);
  assert.ok(Math.abs(clean - Math.log(first.next[0].p / first.next[1].p)) < 1e-9, `m_clean ${clean} is the plain run's log-ratio`);
});

test('usage errors exit 2 with one line: heads outside the model, a bad --ablation, --patch-from without both tokens, a negative --generate', async () => {
  const dir = cases.get('gpt2-plain')!;  // 2 layers × 4 heads
  for (const extra of [['--ablate', '0.1'], ['--ablate', '3.1'], ['--ablate', '1.0'], ['--ablate', '1.5'], ['--ablate', '1.1,x'], ['--ablate', '1'],
    ['--ablate', '1.1', '--ablation', 'foo'], ['--patch-from', CORRUPTED], ['--patch-from', CORRUPTED, '--target', '5'], ['--patch-from', CORRUPTED, '--contrast', '5'],
    ['--generate', '-1'], ['--generate', 'x']]) {
    const r = await attn('run', dir, '--text', TEXT, '--json', ...extra);
    assert.equal(r.code, 2, `${extra.join(' ')}: exit ${r.code} ${r.err}`);
    assert.equal(r.out, '');
    assert.match(r.err, /^attn run: [^\n]+\n?$/, extra.join(' '));
  }
});

test('data errors exit 1 with one line: --patch-from text of another token count', async () => {
  const dir = cases.get('gpt2-plain')!;
  const other = 'the cat sat on the mat. the rat';
  assert.notEqual((await runJson(dir, 'f64', other)).ids.length, (await runJson(dir, 'f64', TEXT)).ids.length);
  const r = await attn('run', dir, '--text', TEXT, '--json', '--target', '5', '--contrast', '6', '--patch-from', other);
  assert.equal(r.code, 1, r.err);
  assert.equal(r.out, '');
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.doesNotMatch(r.err, /\n\s+at /);
});
