// The host's side of a model run's worker (src/host/checkpoint-run/client.ts) with a worker whose fake
// engine is slow (test/support/slow-run-worker.ts): a newer run cancels the one under way without
// ending the worker (its promise rejects at once; the worker stops it between layers and answers the
// newer run with the model still loaded: one worker, one load); so does the progress's Cancel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RunCancelled, RunClient } from '../../../../src/host/checkpoint-run/client.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ROOT } from '../../../support/paths.js';

const script = join(ROOT, 'test', 'support', 'slow-run-worker.ts');
const LAYERS = 20, LAYER_MS = 25; // as slow-run-worker.ts

test('a newer run stops the older one between layers; the worker and its loaded model stay', async () => {
  const client = new RunClient(new WorkerService({ run: { file: script, execArgv: ['--require', 'tsx/cjs'] } }));
  try {
    const first = await client.run('/m', 'warm');
    assert.equal(first.next[0].token, 'loads 1, stops 0');
    assert.equal(first.timings.loadMs, 1);
    const older = client.run('/m', 'The cat');
    await new Promise((resolve) => setTimeout(resolve, 3 * LAYER_MS));
    const t0 = performance.now();
    const newer = client.run('/m', 'The cat sat');
    await assert.rejects(older, RunCancelled);
    const report = await newer;
    const ms = performance.now() - t0;
    // The older run stopped in the worker (it did not run on to its end) and nothing loaded again.
    assert.equal(report.next[0].token, 'loads 1, stops 1');
    assert.equal(report.timings.loadMs, 0);
    assert.equal(report.tokens[0], 'The cat sat');
    assert.equal(client.workersStarted, 1);
    assert.ok(ms >= LAYERS * LAYER_MS * 0.9, `the newer run took its own ${LAYERS} layers (${ms.toFixed(0)} ms)`);
    // The progress's Cancel: the run rejects, the worker stops it, the next run needs no new worker.
    const cancelled = client.run('/m', 'A dog');
    await new Promise((resolve) => setTimeout(resolve, 2 * LAYER_MS));
    client.cancel();
    await assert.rejects(cancelled, /the run was cancelled/);
    const after = await client.run('/m', 'A dog ran');
    assert.equal(after.next[0].token, 'loads 1, stops 2');
    assert.equal(client.workersStarted, 1);
  } finally {
    client.dispose();
  }
});

test('a step of the latest run is what the views open until the next run', async () => {
  const client = new RunClient(new WorkerService({ run: { file: script, execArgv: ['--require', 'tsx/cjs'] } }));
  try {
    await assert.rejects(client.step(1), /no run yet/);
    await client.run('/m', 'one');
    const reader = client.reader();
    assert.equal((await client.step(1)).tokens, 1);
    assert.equal((await reader.open('', undefined)).tokens, 1);
    // A step outside the run is refused in the worker, and the views are told so when they open it.
    await assert.rejects(client.step(2), /outside the run's 1 … 1/);
    await assert.rejects(reader.open('', undefined), /outside/);
    // The next run is opened whole again.
    await client.run('/m', 'two');
    assert.equal((await reader.open('', undefined)).tokenTexts[0], 'two');
  } finally {
    client.dispose();
  }
});

test('the logit lens is stopped by a newer run, as a run is; the worker goes on with the run', async () => {
  const client = new RunClient(new WorkerService({ run: { file: script, execArgv: ['--require', 'tsx/cjs'] } }));
  try {
    await client.run('/m', 'one');
    const lens = client.logitLens();
    await new Promise((resolve) => setTimeout(resolve, 3 * LAYER_MS));
    const t0 = performance.now();
    const newer = client.run('/m', 'two');
    await assert.rejects(lens, RunCancelled);
    const report = await newer;
    // The lens stopped in the worker after a layer: the newer run waited for no whole lens.
    assert.equal(report.next[0].token, 'loads 1, stops 1');
    assert.ok(performance.now() - t0 < 2 * LAYERS * LAYER_MS, 'the newer run did not wait for the whole lens (a generous guard)');
    assert.deepEqual(await client.logitLens(), [[[{ id: 0, token: 'stops 1', p: 1 }]]]);
  } finally {
    client.dispose();
  }
});
