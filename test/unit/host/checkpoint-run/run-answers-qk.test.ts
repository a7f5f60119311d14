// A run that keeps q and k instead of every head's n × n, answered by the model run's worker
// (src/host/checkpoint-run/run-answers.ts with the real engine) on a tiny grouped-query RoPE model of
// 300 tokens: every answer the views read equals the same text's dense run — each range of the grid's
// passes (statistics, thumbnails, the row counts), a head, its windows bit for bit, its picture the
// dense head pooled at the run's side, a step through the tokens — with the grid and the pictures cut
// from the forward's own pass (nothing read from q and k for them). The kept q and k are let go when
// the next run begins and when the worker closes; the norms say in a sentence why such a run has
// none; an engine that must choose runs densely what fits its budget and keeps q and k past it, and
// heads to ablate past it are refused in a sentence.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunAnswers } from '../../../../src/host/checkpoint-run/run-answers.js';
import { keptRunBudget, realEngine, RUN_SHARE, type Engine } from '../../../../src/host/checkpoint-run/engine.js';
import { DEFAULT_RUN_BYTES, type LoadedModel } from '../../../../src/core/checkpoint/model.js';
import { layersAttention } from '../../../../src/core/tensors/attention-source.js';
import { passOverHeads, type PassResult } from '../../../../src/core/tensors/pass.js';
import type { RunReport, RunRequest, RunResponse } from '../../../../src/protocol/checkpoint-run.js';
import type { ModelShape } from '../../../../src/core/model-attention/scan.js';
import { headRanges } from '../../../../src/host/model-editor/scan.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';
import { QWEN2_CONFIG, tinyCheckpoint, writeCheckpoint } from '../../../support/tiny-checkpoint.js';

const root = mkdtempSync(join(tmpdir(), 'attn-qk-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A tiny Qwen2 (4 query heads over 2 key/value heads, RoPE) with the byte-level tokenizer of the tiny GPT-2 folder. */
function tinyQwen(dir: string): string {
  writeTinyGpt2(dir);
  const { configText, tensors } = tinyCheckpoint({ ...QWEN2_CONFIG, vocab_size: 261, max_position_embeddings: 1024 }, 3);
  return writeCheckpoint(dir, configText, tensors);
}

const folder = tinyQwen(join(root, 'tiny-qwen'));
// 300 tokens: past WHOLE_HEAD_MAX (256), so heads are read as pictures and windows.
const TEXT = Array.from({ length: 300 }, (_, i) => 'abcdefghij'[(i * 7) % 10]).join('');

type Ok = Extract<RunResponse, { ok: true }> & Record<string, unknown>;
type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

function asker(answers: RunAnswers): (r: Without<RunRequest>) => Ok {
  let id = 1;
  return (r) => {
    const { response } = answers.answer({ id: id++, ...r } as RunRequest);
    assert.ok(response.ok, JSON.stringify(response));
    return response as Ok;
  };
}

const errorOf = (answers: RunAnswers, r: Without<RunRequest>) => {
  const { response } = answers.answer({ id: 99, ...r } as RunRequest);
  assert.equal(response.ok, false);
  return (response as { error: string }).error;
};

const runOf = (ask: (r: Without<RunRequest>) => Ok, text = TEXT) => (ask({ op: 'run', folder, text }).run as RunReport);

test('a run that keeps q and k answers every read of the views as the dense run of the same text does', () => {
  const dense = new RunAnswers(realEngine(undefined, { attention: 'dense' }));
  const qk = new RunAnswers(realEngine(undefined, { attention: 'qk' }));
  const askDense = asker(dense), askQk = asker(qk);
  const d = runOf(askDense), q = runOf(askQk);
  assert.equal(q.ids.length, 300);
  // The session is told why heads cannot be ablated on it (and it ignores the toggle, saying so).
  assert.match(q.wholeHeads ?? '', /^this run of 300 tokens keeps each layer's queries and keys, not every head's n × n, so heads cannot be ablated nor their norms shown/);
  assert.equal(d.wholeHeads, undefined);
  assert.deepEqual(q.ids, d.ids);
  assert.deepEqual(q.next, d.next);
  const shape: ModelShape = q.shape;
  assert.deepEqual({ ...shape }, { ...d.shape });
  // The grid: each range the editor's scan asks, in order, as the dense run's pass over it.
  for (const [from, to] of [...headRanges(shape), [0, 8], [3, 6]]) {
    const a = askQk({ op: 'pass', from, to, options: {} }).pass as PassResult, b = askDense({ op: 'pass', from, to, options: {} }).pass as PassResult;
    assert.deepEqual(a.stats, b.stats, `heads ${from} … ${to}`);
    assert.deepEqual(a.thumbnails, b.thumbnails);
    assert.deepEqual([a.offRows, a.zeroRows, a.negatives], [b.offRows, b.zeroRows, b.negatives]);
  }
  // A head, its windows (the exact cells the hover shows), bit for bit.
  assert.deepEqual(askQk({ op: 'head', layer: 1, head: 3, options: {} }).weights, askDense({ op: 'head', layer: 1, head: 3, options: {} }).weights);
  for (const [i0, rows, j0, cols] of [[0, 300, 0, 300], [250, 50, 10, 200], [299, 1, 0, 300]]) {
    const window = { op: 'window' as const, layer: 0, head: 2, i0, rows, j0, cols, options: {} };
    assert.deepEqual(askQk(window).weights, askDense(window).weights);
  }
  // The picture: the forward's own, the dense head max-pooled at the run's side.
  const picture = askQk({ op: 'picture', layer: 1, head: 2, options: {} }).picture as { res: number; indices: Uint8Array; max: number };
  assert.ok(picture.res > 0 && picture.res <= 300);
  const { attention } = realEngine(undefined, { attention: 'dense' }).run(folder, TEXT);
  const pooled = passOverHeads(layersAttention('the run', attention, 4, 300), { picture: picture.res }).pictures![1 * 4 + 2];
  assert.deepEqual(picture, { res: pooled.res, indices: pooled.indices, max: pooled.max });
  dense.close();
  qk.close();
});

/** The real engine keeping q and k, each run's source watched: its reads of rows and whole heads counted, its closing seen. */
function watchedEngine(): { engine: Engine; reads: () => number; closed: boolean[] } {
  const real = realEngine(undefined, { attention: 'qk' });
  let reads = 0;
  const closed: boolean[] = [];
  const engine: Engine = {
    ...real,
    run(...args) {
      const run = real.run(...args);
      const source = run.qk!.source, at = closed.push(false) - 1;
      run.qk!.source = {
        ...source,
        head: (layer: number, head: number, out?: Float64Array) => { reads++; return source.head(layer, head, out); },
        rowBytes: (layer: number, head: number, first: number, rows: number) => { reads++; return source.rowBytes(layer, head, first, rows); },
        columnBytes: (layer: number, head: number, first: number, rows: number, j0: number, cols: number) => { reads++; return source.columnBytes!(layer, head, first, rows, j0, cols); },
        close: () => { closed[at] = true; source.close(); },
      };
      return run;
    },
  };
  return { engine, reads: () => reads, closed };
}

test('the grid and the pictures are cut from the forward\'s pass (no row computed again), and each answer is a copy', () => {
  const watched = watchedEngine();
  const answers = new RunAnswers(watched.engine);
  const ask = asker(answers);
  runOf(ask);
  const first = ask({ op: 'pass', from: 0, to: 8, options: {} }).pass as PassResult;
  first.thumbnails.fill(7); // what the worker posted away is the view's; the kept pass stays
  first.pictures![0].indices.fill(7);
  const again = ask({ op: 'pass', from: 0, to: 8, options: {} }).pass as PassResult;
  assert.notDeepEqual(again.thumbnails, first.thumbnails);
  assert.notDeepEqual(again.pictures![0].indices, first.pictures![0].indices);
  ask({ op: 'picture', layer: 0, head: 0, options: {} });
  assert.equal(watched.reads(), 0);
  // The exact weights are computed from q and k.
  ask({ op: 'window', layer: 0, head: 0, i0: 0, rows: 4, j0: 0, cols: 4, options: {} });
  assert.ok(watched.reads() > 0);
  // A range outside the run is refused in a sentence.
  assert.match(errorOf(answers, { op: 'pass', from: 4, to: 9, options: {} }), /heads 4 … 9 are outside the run's 8/);
  answers.close();
});

test('a step through the tokens of a run that keeps q and k reads its first queries and keys: the dense step\'s numbers', () => {
  const dense = new RunAnswers(realEngine(undefined, { attention: 'dense' }));
  const qk = new RunAnswers(realEngine(undefined, { attention: 'qk' }));
  const askDense = asker(dense), askQk = asker(qk);
  runOf(askDense);
  runOf(askQk);
  const a = askQk({ op: 'step', tokens: 280 }).shape as ModelShape, b = askDense({ op: 'step', tokens: 280 }).shape as ModelShape;
  assert.equal(a.tokens, 280);
  assert.deepEqual(a.tokenTexts, b.tokenTexts);
  const passQk = askQk({ op: 'pass', from: 0, to: 8, options: {} }).pass as PassResult, passDense = askDense({ op: 'pass', from: 0, to: 8, options: {} }).pass as PassResult;
  assert.deepEqual(passQk.stats, passDense.stats);
  assert.deepEqual(passQk.thumbnails, passDense.thumbnails);
  const window = { op: 'window' as const, layer: 1, head: 1, i0: 200, rows: 80, j0: 0, cols: 280, options: {} };
  assert.deepEqual(askQk(window).weights, askDense(window).weights);
  // Back to the whole run: the forward's pass again.
  assert.equal((askQk({ op: 'step', tokens: 300 }).shape as ModelShape).tokens, 300);
  askDense({ op: 'step', tokens: 300 });
  assert.deepEqual((askQk({ op: 'pass', from: 0, to: 8, options: {} }).pass as PassResult).stats, (askDense({ op: 'pass', from: 0, to: 8, options: {} }).pass as PassResult).stats);
  dense.close();
  qk.close();
});

test('the kept q and k are let go when the next run begins and when the worker closes', () => {
  const watched = watchedEngine();
  const answers = new RunAnswers(watched.engine);
  const ask = asker(answers);
  runOf(ask);
  ask({ op: 'step', tokens: 100 }); // a step reads the same q and k: it does not let them go
  assert.deepEqual(watched.closed, [false]);
  runOf(ask, TEXT.slice(0, 290));
  assert.deepEqual(watched.closed, [true, false]);
  answers.close();
  assert.deepEqual(watched.closed, [true, true]);
});

test('the norms of a run that keeps q and k are refused in one sentence saying why', () => {
  const answers = new RunAnswers(realEngine(undefined, { attention: 'qk' }));
  runOf(asker(answers));
  for (const r of [{ op: 'pass', from: 0, to: 8, options: { norms: true } }, { op: 'valueNorms', layer: 0, head: 0 }] as const) {
    assert.match(errorOf(answers, r), /^the value-weighted norms are every head's n × n, which this run of 300 tokens does not keep \(it keeps each layer's queries and keys\)/);
  }
  answers.close();
});

test('a short run stays dense, a longer one over the budget keeps q and k; past the dense size heads to ablate and the norms are refused in a sentence, before any pass', () => {
  const engine = realEngine();
  const short = engine.run(folder, TEXT.slice(0, 100));
  assert.equal(short.qk, undefined);
  assert.equal(short.attention[0].length, 4 * 100 * 100);
  // 6,000 tokens: 2 layers × 4 heads × 6,000² float32 is over the 1 GiB a run keeps whole.
  const long = TEXT.repeat(20);
  const ablate = { heads: [{ layer: 0, head: 1 }], labels: ['1.2'], mode: 'zero' as const };
  let said = '';
  assert.throws(() => engine.run(folder, long, undefined, undefined, undefined, { ablate }), (e: Error) => { said = e.message; return e.name === 'ModelError'; });
  const m = /^heads to ablate need every head's n × n, which a run of 6000 tokens on this model does not keep \(it keeps each layer's queries and keys past (\d+) tokens\): keep at most (\d+) tokens \("maxTokens"\) to have them$/.exec(said);
  assert.ok(m && m[1] === m[2], said);
  // The dense size: within the budget's 3 GiB (under the 1 GiB of whole heads, which 5,792 tokens reach).
  assert.ok(Number(m[1]) > 1000 && Number(m[1]) <= 5792, said);
  assert.throws(() => engine.run(folder, long, undefined, undefined, undefined, { norms: true }), /^ModelError: the value-weighted norms need every head's n × n/);
  // The same text cut to the dense size runs with them.
  assert.equal(engine.run(folder, long, 200, undefined, undefined, { ablate }).analyses?.ablation !== undefined, true);
  engine.close();
  // A dense run over the budget is never the choice where q and k fit: 100 tokens run whole in 4 MiB, 300 keep q and k.
  const tight = realEngine(undefined, { budget: 4 * 2 ** 20 });
  assert.equal(tight.run(folder, TEXT.slice(0, 100)).qk, undefined);
  assert.equal(tight.run(folder, TEXT).qk?.pass.stats.length, 8);
  tight.close();
  const qkOnly = realEngine(undefined, { attention: 'qk' });
  assert.throws(() => qkOnly.run(folder, TEXT.slice(0, 50), undefined, undefined, undefined, { ablate }), /this runner keeps only each layer's queries and keys$/);
  qkOnly.close();
});

test('a run of a kept model may take its weights and 1.5 GiB, or the default budget when that is more', () => {
  const budgetOf = (total: number) => keptRunBudget({ elements: { bytes: { total } } } as Pick<LoadedModel, 'elements'>);
  assert.equal(budgetOf(500e6), DEFAULT_RUN_BYTES);
  assert.equal(budgetOf(2.47e9), 2.47e9 + RUN_SHARE);
  assert.equal(RUN_SHARE, 1.5 * 2 ** 30);
});
