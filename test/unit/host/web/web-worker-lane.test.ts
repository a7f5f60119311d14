// The web build's analysis lane (src/host/web/web-worker-lane.ts) under the analysis runner, with the
// built Web Worker script (dist/web/analysis-worker.js) run as a browser would run it: a classic
// script in a global scope of its own (a vm context here) with onmessage and postMessage, messages
// structured-cloned. The numbers are the core's; a script that does not start leaves the runner
// computing on the host's thread; a cancelled computation ends its worker and a fresh one answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalysisRunner, Cancelled, type AnalysisLanes } from '../../../../src/host/analysis/runner.js';
import { WebWorkerLane } from '../../../../src/host/web/web-worker-lane.js';
import { decodeAttention } from '../../../../src/core/result/wire.js';
import { analyze } from '../../../../src/core/index.js';
import { exampleText } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';
import { startedWorkers, withFakeWorkers, workerScripts } from '../../../support/fake-web-worker.js';

const SCRIPT = join(ROOT, 'dist', 'web', 'analysis-worker.js');

const lanesOf = (url: Promise<string>): AnalysisLanes => ({ lane: (_job, options) => new WebWorkerLane(url, options) });

test('the web worker computes what the core computes, off the calling thread', () => withFakeWorkers(async () => {
  assert.ok(existsSync(SCRIPT), 'npm run test:unit builds dist/ first');
  workerScripts.set('blob:analysis', readFileSync(SCRIPT, 'utf8'));
  const lines: string[] = [];
  const runner = new AnalysisRunner(lanesOf(Promise.resolve('blob:analysis')), (line) => lines.push(line));
  try {
    const text = exampleText('apple-watch-lens.attn.json');
    const a = await runner.run('doc', text);
    assert.equal(runner.started, 1, 'in a worker');
    assert.deepEqual(lines, []);
    assert.ok(a.wire);
    const data = decodeAttention(a.wire.header, a.wire.buffer);
    const core = analyze(text).data!;
    assert.deepEqual(Array.from(data.inputs[0].heads[0].weights.data), Array.from(core.inputs[0].heads[0].weights.data));
    assert.deepEqual(Array.from(data.inputs[0].heads[0].scores.data), Array.from(core.inputs[0].heads[0].scores.data));
    const linalg = await runner.run('doc#linalg', text, undefined, undefined, 'linalg');
    assert.ok(linalg.linalg, 'the linear-algebra numbers come from the same worker');
    const broken = await runner.run('doc', '{ "inputs": 3 }');
    assert.equal(broken.wire, undefined);
    assert.ok(broken.problems.some((p) => p.severity === 'error'));
    assert.equal(startedWorkers.length, 1);
  } finally {
    runner.dispose();
  }
}));

test('a worker script that cannot be read, or does not run, leaves the runner computing here', () => withFakeWorkers(async () => {
  for (const url of [Promise.reject(new Error('no dist/web/analysis-worker.js')), Promise.resolve('blob:missing')]) {
    const lines: string[] = [];
    const runner = new AnalysisRunner(lanesOf(url), (line) => lines.push(line));
    try {
      const text = exampleText('apple-watch-raw.attn.json');
      const a = await runner.run('doc', text);
      assert.ok(a.wire, 'computed in place');
      assert.deepEqual(Array.from(decodeAttention(a.wire.header, a.wire.buffer).inputs[0].heads[0].weights.data), Array.from(analyze(text).data!.inputs[0].heads[0].weights.data));
      assert.equal(lines.length, 1);
      assert.match(lines[0], /analysis worker could not start .*computing on the host/);
      assert.ok((await runner.run('doc', `${text} `)).wire, 'and later ones too');
    } finally {
      runner.dispose();
    }
  }
}));

test('a newer version cancels the computation under way: its worker ends and a fresh one answers', () => withFakeWorkers(async () => {
  workerScripts.set('blob:analysis', readFileSync(SCRIPT, 'utf8'));
  const runner = new AnalysisRunner(lanesOf(Promise.resolve('blob:analysis')));
  try {
    const first = runner.run('doc', exampleText('apple-watch-lens.attn.json'));
    // Once the first request is posted (the worker exists), a newer version of the same document.
    await new Promise<void>((resolve) => { const wait = () => (startedWorkers.length > 0 ? resolve() : setTimeout(wait)); wait(); });
    const second = runner.run('doc', exampleText('apple-watch-raw.attn.json'));
    await assert.rejects(first, Cancelled);
    const a = await second;
    assert.ok(a.wire);
    assert.equal(runner.started, 2, 'a fresh worker');
    assert.equal(startedWorkers[0].terminated, true, 'the first one was ended');
  } finally {
    runner.dispose();
  }
}));

/** A worker that says hello, answers every request, and dies on 'crash' (as one out of memory would). */
const CRASHING = 'postMessage({ id: 0 }); onmessage = (e) => { if (e.data.op === "crash") throw new Error("out of memory"); postMessage({ id: e.data.id, op: e.data.op }); };';

test('a worker that may not restart (a reader holding its file) closes its lane when it dies; one that may is replaced', () => withFakeWorkers(async () => {
  workerScripts.set('blob:crashing', CRASHING);
  const held = new WebWorkerLane<{ op: string }>(Promise.resolve('blob:crashing'), { restart: false, died: (why) => new Error(`the model reader stopped (${why})`) }, 'scan');
  assert.deepEqual(await held.ask({ op: 'open' }), { id: 1, op: 'open' });
  await assert.rejects(held.ask({ op: 'crash' }), { message: 'the model reader stopped (out of memory)' });
  // No empty worker in its place: the next request is refused with the same words, and none started.
  await assert.rejects(held.ask({ op: 'head' }), { message: 'the model reader stopped (out of memory)' });
  assert.equal(held.ready(), false);
  assert.equal(startedWorkers.length, 1);
  assert.ok(startedWorkers[0].terminated);
  held.dispose();

  const fresh = new WebWorkerLane<{ op: string }>(Promise.resolve('blob:crashing'), {}, 'analysis');
  assert.deepEqual(await fresh.ask({ op: 'first' }), { id: 1, op: 'first' });
  await assert.rejects(fresh.ask({ op: 'crash' }), /the analysis worker stopped \(out of memory\)/);
  assert.deepEqual(await fresh.ask({ op: 'again' }), { id: 3, op: 'again' });
  assert.equal(fresh.started, 2);
  fresh.dispose();
}));
