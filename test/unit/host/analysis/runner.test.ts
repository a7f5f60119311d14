// The analysis worker (src/host/analysis/runner.ts with the bundled dist/analysis-worker.js): specs
// are read and computed off the calling thread, a newer request for a document cancels the older
// one, long work reports progress, and a missing worker falls back to computing in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalysisRunner, Cancelled } from '../../../../src/host/analysis/runner.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { decodeAttention } from '../../../../src/core/result/wire.js';
import { analyze } from '../../../../src/core/index.js';
import { exampleText } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

const WORKER = join(ROOT, 'dist', 'analysis-worker.js');

/** n tokens × heads, within the reader's cap of 4,194,304 attention cells; d_model 64, d_k 32. */
function bigSpec(n: number, heads: number): string {
  const d = 64;
  const tokens = Array.from({ length: n }, (_, i) => `t${i}`);
  const embeddings = Object.fromEntries(tokens.map((t, i) => [t, Array.from({ length: d }, (_, j) => Math.sin(i * (j + 1)))]));
  const w = Array.from({ length: d }, (_, i) => Array.from({ length: 32 }, (_, j) => Math.cos(i + j) / 8));
  return JSON.stringify({ embeddings, inputs: [{ tokens }], heads: Array.from({ length: heads }, () => ({ wq: w, wk: w, wv: w })), mask: 'causal' });
}

test('the worker computes what the core computes', async () => {
  assert.ok(existsSync(WORKER), 'npm run test:unit builds dist/ first');
  const runner = new AnalysisRunner(new WorkerService({ analysis: { file: WORKER } }));
  try {
    const text = exampleText('apple-watch-lens.attn.json');
    const a = await runner.run('doc', text);
    assert.equal(runner.started, 1, 'in a worker thread');
    assert.ok(a.wire);
    const data = decodeAttention(a.wire.header, a.wire.buffer);
    assert.deepEqual(Array.from(data.inputs[0].heads[0].weights.data), Array.from(analyze(text).data!.inputs[0].heads[0].weights.data));
    const broken = await runner.run('doc', '{ "inputs": 3 }');
    assert.equal(broken.wire, undefined);
    assert.ok(broken.problems.some((p) => p.severity === 'error'));
  } finally {
    runner.dispose();
  }
});

test('a newer version cancels the older one, running or queued; another document waits its turn', async () => {
  const runner = new AnalysisRunner(new WorkerService({ analysis: { file: WORKER } }));
  try {
    const slow = runner.run('doc', bigSpec(580, 12));
    const other = runner.run('other', exampleText('apple-watch-lens.attn.json'));
    const queued = runner.run('doc', bigSpec(300, 2));
    const newest = runner.run('doc', exampleText('multi-head-causal.attn.json'));
    await assert.rejects(slow, Cancelled);
    await assert.rejects(queued, Cancelled);
    const [o, n] = await Promise.all([other, newest]);
    assert.ok(o.wire && n.wire);
    assert.equal(n.wire.header.inputs[0].heads.length, 2);
    assert.equal(runner.started, 2, 'the running job was stopped by starting a fresh worker');
  } finally {
    runner.dispose();
  }
});

test('long work reports progress in heads done out of inputs × heads', async () => {
  const runner = new AnalysisRunner(new WorkerService({ analysis: { file: WORKER } }));
  const seen: [number, number][] = [];
  try {
    const a = await runner.run('doc', bigSpec(580, 12), (done, total) => seen.push([done, total]));
    assert.ok(a.wire);
    assert.ok(seen.length >= 1, 'at least one progress line for a computation of a few hundred ms');
    for (const [done, total] of seen) {
      assert.equal(total, 12);
      assert.ok(done >= 1 && done < total);
    }
  } finally {
    runner.dispose();
  }
});

test('without a worker the analysis still runs, in place', async () => {
  const runner = new AnalysisRunner(undefined);
  const a = await runner.run('doc', exampleText('apple-watch-lens.attn.json'));
  assert.equal(runner.started, 0);
  assert.ok(a.wire);
  const lines: string[] = [];
  const missing = new AnalysisRunner(new WorkerService({ analysis: { file: join(__dirname, 'no-such-worker.js') } }), (line) => lines.push(line));
  const b = await missing.run('doc', exampleText('apple-watch-lens.attn.json'));
  assert.ok(b.wire, 'computed here');
  assert.equal(missing.started, 0);
  assert.match(lines.join('\n'), /could not start \(the analysis worker could not start: no script at .*\); computing on the host/);
  missing.dispose();
});

test('a worker script that throws as it loads: the analysis runs in place, and no worker is started again', async () => {
  const broken = join(tempDir('attn-broken-analysis-'), 'analysis-worker.js');
  writeFileSync(broken, 'throw new Error("a broken bundle");\n');
  const workers = new WorkerService({ analysis: { file: broken } });
  const runner = new AnalysisRunner(workers);
  try {
    const a = await runner.run('doc', exampleText('apple-watch-lens.attn.json'));
    assert.ok(a.wire, 'computed here');
    const b = await runner.run('doc', exampleText('apple-watch-lens.attn.json'));
    assert.ok(b.wire);
    assert.equal(workers.started.analysis, 1, 'one worker tried, not one per request');
  } finally {
    runner.dispose();
    workers.dispose();
  }
});

test('the linear-algebra numbers are a job of their own, which does not cancel the attention of the same document', async () => {
  const runner = new AnalysisRunner(new WorkerService({ analysis: { file: WORKER } }));
  try {
    const text = exampleText('spectrum-stretch-shear-rotate.attn.json');
    const result = runner.run('doc', text);
    const linalg = runner.run('doc#linalg', text, undefined, undefined, 'linalg');
    const [r, l] = await Promise.all([result, linalg]);
    assert.ok(r.wire && r.wire.header.linalg === undefined, 'the result comes without them');
    assert.equal(l.linalg?.spectra.length, 2);
    assert.equal(l.linalg?.spectra[0]?.[0].singularValues[0], 3);
  } finally {
    runner.dispose();
  }
});
