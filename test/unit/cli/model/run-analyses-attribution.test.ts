// `attn run --target T [--contrast C]` (direct logit attribution) against the independent PyTorch
// reference (test/reference/analyses.py) on a tiny checkpoint of every decoder family, in float32 (1e-5)
// and float64 (1e-9), both held to the float64 reference, each difference relative to max(1, the
// target's and contrast's |logit|, every |part|) (float32 rounds a part as it rounds the logits): every part (the embeddings, each head
// [layer][head], each attention layer's output bias, each MLP, the final norm's bias, the head's bias
// where there is one) and the total. Invariants through the CLI alone: the parts add up to `total`, and
// `total` is the logit difference of a plain run (log p_target − log p_contrast of its next tokens) —
// where the family caps its logits (Gemma 2) the parts add up to the difference before the cap, which the
// reference computes from the logits. Token arguments: text that is one token, or digits as an id;
// text of two tokens or an id past the vocabulary is a data error (exit 1, one line).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { attn } from '../../../support/cli.js';
import { compareAttribution, DECODERS, generateCases, partsSum, reference, runJson, TEXT, toleranceOf, Worst, type RunJson, EXACT } from '../../../support/analyses-reference.js';

let cases = new Map<string, string>();
before(() => { cases = generateCases(); });

/** Families whose logits pass through a final softcap: the parts add up to the difference before it. */
const CAPPED = new Set(['gemma-2-2b']);

for (const precision of ['f32', 'f64'] as const) {
  test(`--target and --contrast in ${precision}: every part and the total as the reference's; the parts sum to the total, which is the plain run's logit difference`, async () => {
    const tolerance = toleranceOf(precision);
    const worst = new Worst(tolerance, `attribution ${precision}`);
    const sums = new Worst(tolerance, `parts − total ${precision}`);
    const plain = new Worst(tolerance, `total − log(p_t / p_c) ${precision}`);
    const runs: { name: string; target: number; contrast: number | null; plain: RunJson; ours: RunJson }[] = [];
    for (const name of DECODERS) {
      const dir = cases.get(name)!;
      const first = await runJson(dir, precision, TEXT);
      const [target, contrast] = [first.next[0].id, first.next[1].id];
      runs.push({ name, target, contrast, plain: first, ours: await runJson(dir, precision, TEXT, '--target', String(target), '--contrast', String(contrast)) });
      // Without a contrast: the target's raw logit. A target that is not the top token too.
      runs.push({ name, target: first.next[2].id, contrast: null, plain: first, ours: await runJson(dir, precision, TEXT, '--target', String(first.next[2].id)) });
    }
    const theirs = reference(runs.map((r) => ({ dir: cases.get(r.name)!, ids: r.ours.ids, dtype: EXACT, target: r.target, contrast: r.contrast })));
    runs.forEach((r, i) => {
      const a = r.ours.attribution, t = theirs[i].attribution!;
      const where = `${r.name} ${r.target}−${r.contrast}`;
      assert.ok(a, `${where}: no "attribution" in --json`);
      assert.deepEqual(r.ours.ids, r.plain.ids);
      assert.equal(a.heads.length, r.ours.model.layers);
      a.heads.forEach((row) => assert.equal(row.length, r.ours.model.heads));
      const scale = t.logitScale;
      compareAttribution(a, t, worst, where, scale);
      // The reference's own split is whole: its parts rebuild the residual stream and its total is the logit difference before any cap.
      assert.ok(t.residualError < (precision === 'f64' ? 1e-12 : 1e-4), `${where}: the reference's parts miss the residual by ${t.residualError}`);
      worst.see(a.total, t.direct, `${where} total vs the reference's logit difference`, scale);
      sums.see(partsSum(a), a.total, where, scale);
      if (r.contrast !== null && !CAPPED.has(r.name)) {
        plain.see(a.total, Math.log(r.plain.next[0].p) - Math.log(r.plain.next[1].p), where, scale);
      }
      if (r.contrast === null && !CAPPED.has(r.name)) worst.see(a.total, theirs[i].logits[r.target], `${where} total vs the raw logit`, scale);
    });
    console.log(`attribution, ${precision}: parts ${worst.done()}, sum − total ${sums.done()}, total − plain run's log-ratio ${plain.done()}`);
    // The numbers are not all alike (a constant would pass a comparison of sums).
    assert.ok(new Set(runs.map((r) => r.ours.attribution!.total.toFixed(6))).size > runs.length / 2);
  });
}

test('in float64 the parts add up to total within 1e-9 for every family, capped or not', async () => {
  for (const name of DECODERS) {
    const dir = cases.get(name)!;
    const first = await runJson(dir, 'f64', TEXT);
    const run = await runJson(dir, 'f64', TEXT, '--target', String(first.next[0].id), '--contrast', String(first.next[4].id));
    const a = run.attribution!;
    assert.ok(Math.abs(partsSum(a) - a.total) < 1e-9, `${name}: parts ${partsSum(a)} vs total ${a.total}`);
    assert.ok(a.heads.flat().some((v) => v !== 0) && a.mlps.some((v) => v !== 0) && a.embed !== 0, `${name}: the parts are not all zero`);
  }
});

test('a token as text that is one token is its id; two tokens or an id past the vocabulary: exit 1, one line', async () => {
  const dir = cases.get('gpt2-plain')!;
  const plain = await runJson(dir, 'f64', TEXT);
  const cat = plain.ids[plain.pieces.indexOf('Ġcat')], sat = plain.ids[plain.pieces.indexOf('Ġsat')];
  const byText = await runJson(dir, 'f64', TEXT, '--target', ' cat', '--contrast', ' sat');
  const byId = await runJson(dir, 'f64', TEXT, '--target', String(cat), '--contrast', String(sat));
  assert.equal(byText.attribution!.target, cat);
  assert.equal(byText.attribution!.contrast, sat);
  assert.deepEqual(byText.attribution, byId.attribution);
  assert.equal((await runJson(dir, 'f64', TEXT, '--target', ' cat')).attribution!.contrast, null);
  for (const extra of [['--target', ' mat'], ['--target', ' cat', '--contrast', ' mat'], ['--target', String(plain.model.vocab)], ['--target', ' cat', '--contrast', '99999'],
    ['--ablate', '1.1', '--target', String(plain.model.vocab)]]) {
    const r = await attn('run', dir, '--text', TEXT, '--json', ...extra);
    assert.equal(r.code, 1, `${extra.join(' ')}: exit ${r.code} ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.doesNotMatch(r.err, /\n\s+at /);
  }
});
