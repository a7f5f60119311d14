// The model run's worker on a real tiny GPT-2 (src/host/checkpoint-run/run-answers.ts and
// run-norms.ts): the norms switch's reads are the value-weighted norms of the latest run, computed at
// the first read and then kept (one more run of the text, not one a read), dropped at the next run,
// with ‖v W_O‖ per key such that norm = α · ‖v W_O‖; a run with heads ablated answers the ablated
// run's attention (the layers before the first ablated one unchanged, a later head changed) and its
// next tokens, and a run without them afterwards gives back the run's numbers bit for bit. A spec's
// analyses and the views' ablation in one run: the ablation's logit difference is of the spec's
// target (and contrast); with generated tokens, a step cuts the ablated run's attention and the norms
// (which cover the generated tokens) alike.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realEngine, type Engine } from '../../../../src/host/checkpoint-run/engine.js';
import { RunAnswers } from '../../../../src/host/checkpoint-run/run-answers.js';
import type { RunReport, RunRequest, RunResponse } from '../../../../src/protocol/checkpoint-run.js';
import type { AnalysisRequest } from '../../../../src/core/model-analysis/types.js';
import { headerOf } from '../../../../src/core/model-attention/scan.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';

const root = mkdtempSync(join(tmpdir(), 'attn-norms-'));
after(() => rmSync(root, { recursive: true, force: true }));
const folder = writeTinyGpt2(join(root, 'tiny-gpt2'));
const TEXT = 'The cat sat on the mat. The cat';

/** The real engine, with every request it was asked kept. */
function counted(): { engine: Engine; asked: (AnalysisRequest | undefined)[] } {
  const real = realEngine();
  const asked: (AnalysisRequest | undefined)[] = [];
  return { asked, engine: { ...real, run: (...a) => { asked.push(a[5]); return real.run(...a); } } };
}

let nextId = 1;
type Without<T> = T extends unknown ? Omit<T, 'id'> : never;
function ask(answers: RunAnswers, r: Without<RunRequest>): Record<string, unknown> {
  const { response } = answers.answer({ id: nextId++, ...r } as RunRequest);
  assert.ok(response.ok, JSON.stringify(response));
  return response as Extract<RunResponse, { ok: true }> & Record<string, unknown>;
}

const head = (answers: RunAnswers, layer: number, h: number, norms = false) =>
  Array.from(ask(answers, { op: 'head', layer, head: h, options: norms ? { norms: true } : {} }).weights as Float32Array);

test('norms are computed at the first read, kept for the next reads, and α × ‖v W_O‖ gives them back; a new run drops them', () => {
  const { engine, asked } = counted();
  const answers = new RunAnswers(engine);
  const report = ask(answers, { op: 'run', folder, text: TEXT }).run as RunReport;
  const n = report.ids.length;
  assert.deepEqual(asked, [undefined], 'a plain run asks for nothing more');
  const weights = head(answers, 1, 2);
  const norms = head(answers, 1, 2, true);
  assert.deepEqual(asked.slice(1), [{ norms: true }], 'the first read of the norms runs the text once more');
  const valueNorms = Array.from(ask(answers, { op: 'valueNorms', layer: 1, head: 2 }).valueNorms as Float32Array);
  assert.equal(valueNorms.length, n);
  const pass = ask(answers, { op: 'pass', from: 0, to: 8, options: { norms: true } }).pass as Parameters<typeof headerOf>[1];
  assert.equal(asked.length, 2, 'later reads of the norms run nothing');
  let worst = 0, differs = false;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const k = i * n + j;
      worst = Math.max(worst, Math.abs(norms[k] - weights[k] * valueNorms[j]) / Math.max(1e-30, Math.abs(norms[k])));
      if (norms[k] !== weights[k]) differs = true;
    }
  }
  assert.ok(worst < 1e-5, `norm = α · ‖v W_O‖ within 1e-5 relative (worst ${worst})`);
  assert.ok(differs, 'the norms are not the weights');
  // Rows of norms do not sum to 1, and the header says nothing of scores saved.
  const header = headerOf(report.shape, pass, { norms: true });
  assert.equal(header.norms, true);
  assert.equal(header.offRows, 0);
  assert.ok(!header.warnings.some((w) => /sum to 1/.test(w)), header.warnings.join('; '));
  ask(answers, { op: 'run', folder, text: `${TEXT} sat` });
  head(answers, 0, 0, true);
  assert.deepEqual(asked.slice(2), [undefined, { norms: true }], 'the next run\'s norms are its own');
  answers.close();
});

test('an ablated run\'s attention and next tokens replace the run\'s; restoring the heads gives the run\'s numbers back exactly', () => {
  const answers = new RunAnswers(realEngine());
  const base = ask(answers, { op: 'run', folder, text: TEXT }).run as RunReport;
  const before = [head(answers, 0, 1), head(answers, 1, 0), head(answers, 1, 3)];
  const ablated = ask(answers, { op: 'run', folder, text: TEXT, ablate: { heads: [{ layer: 0, head: 1 }], labels: ['1.2'], mode: 'zero' } }).run as RunReport;
  assert.equal(ablated.shape.file, 'the ablated run');
  assert.deepEqual(ablated.next, base.next, 'the report\'s own next tokens stay the run\'s');
  assert.ok(ablated.ablation, 'the report carries the ablation');
  assert.deepEqual(ablated.ablation.heads, ['1.2']);
  assert.equal(ablated.ablation.target, base.next[0].id, 'without a target: the run\'s own top token');
  assert.notDeepEqual(ablated.ablation.next, base.next, 'switching a head off moves the next tokens');
  assert.notEqual(ablated.ablation.logitDiff, ablated.ablation.baseLogitDiff);
  assert.deepEqual(head(answers, 0, 1), before[0], 'the ablated head\'s own layer: its weights are computed before its output is replaced');
  assert.notDeepEqual(head(answers, 1, 0), before[1], 'a later layer\'s head reads the changed stream');
  const restored = ask(answers, { op: 'run', folder, text: TEXT }).run as RunReport;
  assert.equal(restored.ablation, undefined);
  assert.deepEqual(restored.next, base.next);
  assert.deepEqual([head(answers, 0, 1), head(answers, 1, 0), head(answers, 1, 3)], before, 'bit for bit the run\'s weights again');
  const none = ask(answers, { op: 'run', folder, text: TEXT, ablate: { heads: [], labels: [], mode: 'zero' } }).run as RunReport;
  assert.equal(none.ablation, undefined, 'no head named: a plain run');
  answers.close();
});

test('mean ablation differs from zero ablation; a head outside the model is one line, never a crash', () => {
  const answers = new RunAnswers(realEngine());
  ask(answers, { op: 'run', folder, text: TEXT });
  const zero = (ask(answers, { op: 'run', folder, text: TEXT, ablate: { heads: [{ layer: 0, head: 0 }], labels: ['1.1'], mode: 'zero' } }).run as RunReport).ablation!;
  const mean = (ask(answers, { op: 'run', folder, text: TEXT, ablate: { heads: [{ layer: 0, head: 0 }], labels: ['1.1'], mode: 'mean' } }).run as RunReport).ablation!;
  assert.equal(mean.mode, 'mean');
  assert.notEqual(mean.logitDiff, zero.logitDiff);
  const { response } = answers.answer({ id: nextId++, op: 'run', folder, text: TEXT, ablate: { heads: [{ layer: 5, head: 0 }], labels: ['6.1'], mode: 'zero' } });
  assert.equal(response.ok, false);
  assert.equal((response as { error: string }).error, 'there is no head 6.1 to ablate in this model of 2 layers × 4 heads');
  answers.close();
});

/** Row-major top-left m × m of an n × n head. */
const topLeft = (w: number[], n: number, m: number) => Array.from({ length: m * m }, (_, k) => w[Math.floor(k / m) * n + (k % m)]);

test('a spec\'s target with heads ablated: the ablated logit difference is of that target and contrast; the attribution is the run\'s', () => {
  const answers = new RunAnswers(realEngine());
  const ablate = { heads: [{ layer: 1, head: 2 }], labels: ['2.3'], mode: 'zero' as const };
  const alone = (ask(answers, { op: 'run', folder, text: TEXT, precision: 'f64', ablate }).run as RunReport).ablation!;
  // The ablated run's two most likely tokens: their logit difference is ln(p0 / p1) of its own next tokens.
  const [first, second] = alone.next;
  const run = ask(answers, { op: 'run', folder, text: TEXT, precision: 'f64', analysis: { target: String(first.id), contrast: String(second.id) }, ablate }).run as RunReport;
  assert.ok(run.attribution && run.ablation, 'one run answers both');
  assert.deepEqual([run.ablation.target, run.ablation.contrast], [first.id, second.id]);
  assert.ok(Math.abs(run.ablation.logitDiff - Math.log(first.p / second.p)) < 1e-9, `${run.ablation.logitDiff} vs ln(p0/p1) ${Math.log(first.p / second.p)}`);
  assert.ok(Math.abs(run.ablation.baseLogitDiff - run.attribution.total) < 1e-9, 'the difference before ablation is the attribution\'s total');
  assert.deepEqual(run.ablation.next, alone.next, 'the ablated next tokens do not depend on the target');
  // A target alone: the difference is its raw logit, as the ablation without a target takes the top token's.
  const top = (ask(answers, { op: 'run', folder, text: TEXT, precision: 'f64' }).run as RunReport).next[0].id;
  const targetOnly = (ask(answers, { op: 'run', folder, text: TEXT, precision: 'f64', analysis: { target: String(top) }, ablate }).run as RunReport).ablation!;
  assert.deepEqual([targetOnly.target, targetOnly.contrast, targetOnly.logitDiff], [top, null, alone.logitDiff]);
  answers.close();
});

test('generated tokens with heads ablated: the run\'s own greedy tokens, the ablated attention over them; a step cuts it and the norms alike', () => {
  const answers = new RunAnswers(realEngine());
  const own = ask(answers, { op: 'run', folder, text: TEXT, analysis: { generate: 2 } }).run as RunReport;
  const ablate = { heads: [{ layer: 0, head: 1 }], labels: ['1.2'], mode: 'zero' as const };
  const run = ask(answers, { op: 'run', folder, text: TEXT, analysis: { generate: 2 }, ablate }).run as RunReport;
  const n = run.ids.length;
  assert.deepEqual(run.generated, own.generated, 'the tokens are generated by the model itself, not the ablated one');
  assert.equal(run.shape.tokens, n);
  assert.equal(run.shape.file, 'the ablated run');
  assert.ok(run.ablation);
  const whole = head(answers, 1, 0), norms = head(answers, 1, 0, true);
  assert.equal(norms.length, n * n, 'the norms cover the generated tokens');
  const valueNorms = Array.from(ask(answers, { op: 'valueNorms', layer: 1, head: 0 }).valueNorms as Float32Array);
  const stepped = ask(answers, { op: 'step', tokens: n - 1 }).shape as { tokens: number; file: string };
  assert.deepEqual([stepped.tokens, stepped.file], [n - 1, 'the ablated run']);
  assert.deepEqual(head(answers, 1, 0), topLeft(whole, n, n - 1), 'zero ablation is causal: the prefix of the ablated run');
  assert.deepEqual(head(answers, 1, 0, true), topLeft(norms, n, n - 1), 'the norms are cut to the step too');
  assert.deepEqual(Array.from(ask(answers, { op: 'valueNorms', layer: 1, head: 0 }).valueNorms as Float32Array), valueNorms.slice(0, n - 1));
  ask(answers, { op: 'step', tokens: n });
  assert.deepEqual(head(answers, 1, 0, true), norms, 'back to the whole run');
  answers.close();
});
