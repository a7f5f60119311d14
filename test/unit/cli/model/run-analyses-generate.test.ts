// `attn run --generate N` (greedy, exactly N tokens, with the kept keys and values) against the
// independent PyTorch reference (test/reference/analyses.py, which runs the whole sequence again at
// each step) on a tiny checkpoint of every decoder family, in float32 (1e-5) and float64 (2⁻²³, the
// rounding of the float32 weights a run keeps), both held to the float64 reference: the
// generated ids, and the attention of the whole sequence (prompt + generated), which also equals a plain
// run of those ids wherever their text encodes back to them. Then the induction example
// (examples/models/induction-gpt2): its layer 2 head 1 makes " sat" after "… The cat", by attribution
// and by ablation. Without torch this test fails (it never skips).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT } from '../../../support/paths.js';
import { compareAttribution, DECODERS, EXACT, generateCases, reference, runJson, TEXT, toleranceOf, Worst, type RunJson } from '../../../support/analyses-reference.js';

let cases = new Map<string, string>();
before(() => { cases = generateCases(); });

const STEPS = 4;
/**
 * A run keeps its attention weights as float32 (in either precision): f64's 1e-9 becomes float32's
 * rounding, 2⁻²³. A float32 run's attention is held to the float64 reference as every float32
 * forward's is (float32-forward.test.ts: 1e-4; pythia-160m's random weights put it 1.3e-5 away), and
 * to its own plain runs bit for bit: generation computes nothing a plain run would not.
 */
const ATTENTION = (precision: 'f32' | 'f64') => (precision === 'f32' ? 1e-4 : Math.max(toleranceOf(precision), 2 ** -23));

for (const precision of ['f32', 'f64'] as const) {
  test(`--generate ${STEPS} in ${precision}: the reference's greedy ids, and the whole sequence's attention as the reference's and a plain run's`, async () => {
    const worst = new Worst(ATTENTION(precision), `generation ${precision}`);
    const same = new Worst(0, `generation ${precision} against its own plain runs`);
    const runs: { name: string; prompt: RunJson; ours: RunJson }[] = [];
    for (const name of DECODERS) {
      const dir = cases.get(name)!;
      runs.push({ name, prompt: await runJson(dir, precision, TEXT), ours: await runJson(dir, precision, TEXT, '--generate', String(STEPS)) });
    }
    const theirs = reference(runs.map((r) => ({ dir: cases.get(r.name)!, ids: r.prompt.ids, dtype: EXACT, generate: STEPS })));
    let replayed = 0;
    for (const [i, r] of runs.entries()) {
      const g = r.ours.generated, n = r.prompt.ids.length;
      assert.ok(g, `${r.name}: no "generated" in --json`);
      assert.deepEqual(g.map((t) => t.id), theirs[i].generated, `${r.name}: the generated ids`);
      assert.deepEqual(r.ours.ids, [...r.prompt.ids, ...g.map((t) => t.id)], `${r.name}: the run's ids are the prompt's and the generated`);
      assert.deepEqual(g.map((t) => t.token), r.ours.tokens.slice(n), `${r.name}: the generated tokens' text`);
      assert.equal(r.ours.attention.length, theirs[i].attention.length);
      r.ours.attention.forEach((layer, l) => layer.forEach((head, h) => {
        assert.equal(head.length, n + STEPS, `${r.name}: queries in layer ${l} head ${h}`);
        head.forEach((row, q) => row.forEach((w, k) => worst.see(w, theirs[i].attention[l][h][q][k], `${r.name} [${l}][${h}][${q}][${k}]`)));
      }));
      // The prompt's part of the attention is the prompt's own run.
      r.prompt.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, q) => row.forEach((w, k) => {
        same.see(r.ours.attention[l][h][q][k], w, `${r.name} prompt part [${l}][${h}][${q}][${k}]`);
      }))));
      // A plain run of the whole text, where it encodes back to the same ids (random tiny models often
      // generate lone bytes of no character): the same attention. The induction example below always does.
      const whole = await runJson(cases.get(r.name)!, precision, TEXT + g.map((t) => t.token).join(''));
      if (whole.ids.join() === r.ours.ids.join()) {
        replayed++;
        whole.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, q) => row.forEach((w, k) => {
          same.see(r.ours.attention[l][h][q][k], w, `${r.name} plain run [${l}][${h}][${q}][${k}]`);
        }))));
      }
    }
    console.log(`generation, ${precision}: worst scaled difference ${worst.done()}, ${replayed} of ${DECODERS.length} also against a plain run (${same.done()})`);
    // The generated ids are not one constant.
    assert.ok(new Set(runs.map((r) => r.ours.generated!.map((t) => t.id).join())).size > 3);
  });
}

test('the induction example generates " sat on the mat", and its attention is a plain run\'s of the whole text, in both precisions', async () => {
  const dir = join(ROOT, 'examples', 'models', 'induction-gpt2');
  const text = 'The cat sat on the mat. The cat';
  for (const precision of ['f32', 'f64'] as const) {
    const worst = new Worst(ATTENTION(precision), `induction generation ${precision}`);
    const run = await runJson(dir, precision, text, '--generate', '4');
    const words = run.generated!.map((t) => t.token).join('');
    const whole = await runJson(dir, precision, text + words);
    assert.deepEqual(run.ids, whole.ids, `"${text}${words}" encodes to the run's ids`);
    assert.deepEqual(run.tokens, whole.tokens);
    whole.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, q) => row.forEach((w, k) => worst.see(run.attention[l][h][q][k], w, `[${l}][${h}][${q}][${k}]`)))));
    const [theirs] = reference([{ dir, ids: run.ids.slice(0, run.ids.length - 4), dtype: EXACT, generate: 4 }]);
    assert.deepEqual(run.generated!.map((t) => t.id), theirs.generated);
    console.log(`induction example, ${precision}: generated ${JSON.stringify(words)}; attention against a plain run's ${worst.done()}`);
  }
});

test('exactly N tokens: no stop rule', async () => {
  const run = await runJson(cases.get('llama-gqa')!, 'f64', TEXT, '--generate', '9');
  assert.equal(run.generated!.length, 9);
});

test('the induction example: layer 2 head 1 has the largest attribution to " sat", and ablating it moves " sat" out of first place', async () => {
  const dir = join(ROOT, 'examples', 'models', 'induction-gpt2');
  const text = 'The cat sat on the mat. The cat';
  const plain = await runJson(dir, 'f64', text);
  const sat = plain.next[0];
  assert.equal(sat.token, ' sat', 'the example predicts " sat" unablated');
  const run = await runJson(dir, 'f64', text, '--target', ' sat');
  const a = run.attribution!;
  assert.equal(a.target, sat.id);
  const ranked = a.heads.flatMap((row, l) => row.map((v, h) => ({ l, h, v }))).sort((x, y) => y.v - x.v);
  assert.deepEqual([ranked[0].l, ranked[0].h], [1, 0], `the largest head part is layer ${ranked[0].l + 1} head ${ranked[0].h + 1}: ${JSON.stringify(ranked)}`);
  const ablated = await runJson(dir, 'f64', text, '--ablate', '2.1');
  assert.notEqual(ablated.ablation!.next[0].token, ' sat', `ablated next: ${JSON.stringify(ablated.ablation!.next)}`);
  const [theirs] = reference([{ dir, ids: run.ids, dtype: EXACT, target: sat.id, contrast: null, ablate: [[1, 0]], ablation: 'zero' }]);
  const worst = new Worst(1e-9, 'induction example');
  compareAttribution(a, theirs.attribution!, worst, 'attribution', theirs.attribution!.logitScale);
  worst.see(ablated.ablation!.logitDiff, theirs.ablation!.logitDiff, 'ablated logit of " sat"', theirs.ablation!.logitScale);
  worst.done();
  console.log(`induction example: " sat" p ${sat.p.toFixed(4)}; head parts ${ranked.map((x) => `L${x.l + 1}.H${x.h + 1} ${x.v.toFixed(3)}`).join(', ')}; `
    + `mlps ${a.mlps.map((v) => v.toFixed(3)).join(', ')}, embed ${a.embed.toFixed(3)}, total ${a.total.toFixed(3)}; `
    + `--ablate 2.1: logit ${ablated.ablation!.baseLogitDiff.toFixed(3)} → ${ablated.ablation!.logitDiff.toFixed(3)}, next ${ablated.ablation!.next.map((t) => `${JSON.stringify(t.token)} ${t.p.toFixed(4)}`).join(', ')}`);
});
