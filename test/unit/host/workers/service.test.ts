// The host's worker service (src/host/workers/service.ts) with a worker that echoes
// (test/support/echo-worker.ts): a lane starts a worker of its named job on its first request and
// keeps it, a worker that died fails what waited on it and is replaced at the next request (or, for a
// lane that may not restart, refuses every later one), a script that is missing or throws before its
// first message is a worker that cannot start (told once, never restarted), disposing the service
// ends every worker, and a job the service does not know is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestError } from '../../../../src/protocol/requests.js';
import { distScripts, JOB_NAMES, WorkerService, WorkerStartError, type JobName, type JobScript } from '../../../../src/host/workers/service.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

const echo: JobScript = { file: join(ROOT, 'test', 'support', 'echo-worker.ts'), execArgv: ['--require', 'tsx/cjs'] };
const scripts = { analysis: echo, scan: echo, run: echo };

interface Echo { id: number; value?: unknown; threadId: number; workerData?: unknown }

test('a lane starts a worker of its named job on its first request and keeps it', async () => {
  const workers = new WorkerService(scripts);
  try {
    const run = workers.lane<Echo>('run', { workerData: { flag: 7 } });
    const scan = workers.lane<Echo>('scan');
    assert.equal(workers.alive(), 0, 'nothing starts before a request');
    const a = await run.ask({ op: 'echo', value: 'one' });
    const b = await run.ask({ op: 'echo', value: 'two' });
    assert.deepEqual([a.value, b.value], ['one', 'two']);
    assert.equal(a.threadId, b.threadId, 'one worker for the lane');
    assert.deepEqual(a.workerData, { flag: 7 });
    const c = await scan.ask({ op: 'echo' });
    assert.notEqual(c.threadId, a.threadId, 'each lane its own thread');
    assert.deepEqual(workers.started, { analysis: 0, scan: 1, run: 1 });
    assert.equal(workers.alive('run'), 1);
    assert.equal(workers.alive(), 2);
  } finally {
    workers.dispose();
  }
});

test('a worker that died fails what waited on it and is replaced at the next request', async () => {
  const workers = new WorkerService(scripts);
  try {
    const lane = workers.lane<Echo>('analysis');
    const first = await lane.ask({ op: 'echo' });
    const waiting = lane.ask({ op: 'silent' });
    const dying = lane.ask({ op: 'exit' });
    await assert.rejects(waiting, (e: Error) => e instanceof RequestError && /exit code 3/.test(e.message));
    await assert.rejects(dying, RequestError);
    assert.equal(lane.alive, false);
    const again = await lane.ask({ op: 'echo', value: 'back' });
    assert.equal(again.value, 'back');
    assert.notEqual(again.threadId, first.threadId, 'a fresh worker');
    assert.equal(lane.started, 2);
    assert.equal(workers.started.analysis, 2);
    // restart(): the worker under way is ended on purpose (a cancelled computation), the next request starts another.
    const cut = lane.ask({ op: 'silent' });
    lane.restart(new RequestError('replaced'));
    await assert.rejects(cut, /replaced/);
    assert.equal((await lane.ask({ op: 'echo' })).value, undefined);
    assert.equal(lane.started, 3);
  } finally {
    workers.dispose();
  }
});

test('a lane that may not restart refuses every request after its worker died, with its own error', async () => {
  const workers = new WorkerService(scripts);
  try {
    const lane = workers.lane<Echo>('scan', { restart: false, died: (why) => new Error(`the reader stopped (${why})`) });
    await lane.ask({ op: 'echo' });
    await assert.rejects(lane.ask({ op: 'exit' }), /the reader stopped \(exit code 3\)/);
    await assert.rejects(lane.ask({ op: 'echo' }), /the reader stopped/);
    assert.equal(lane.started, 1);
    assert.equal(workers.lanesOpen, 0, 'the service forgets it');
  } finally {
    workers.dispose();
  }
});

test('disposing the service ends every worker; its lanes, old or new, refuse', async () => {
  const workers = new WorkerService(scripts);
  const lanes = JOB_NAMES.map((job) => workers.lane<Echo>(job));
  await Promise.all(lanes.map((l) => l.ask({ op: 'echo' })));
  assert.equal(workers.alive(), 3);
  const waiting = lanes[0].ask({ op: 'silent' });
  workers.dispose();
  await assert.rejects(waiting, WorkerStartError);
  assert.equal(workers.alive(), 0);
  assert.equal(workers.lanesOpen, 0);
  await assert.rejects(lanes[1].ask({ op: 'echo' }), WorkerStartError);
  const late = workers.lane<Echo>('run');
  assert.equal(late.ready(), false);
  await assert.rejects(late.ask({ op: 'echo' }), WorkerStartError);
});

test('a lane its client disposes ends its worker and is forgotten', async () => {
  const workers = new WorkerService(scripts);
  try {
    const lane = workers.lane<Echo>('run');
    await lane.ask({ op: 'echo' });
    lane.dispose();
    assert.equal(workers.alive(), 0);
    assert.equal(workers.lanesOpen, 0);
    await assert.rejects(lane.ask({ op: 'echo' }), RequestError);
  } finally {
    workers.dispose();
  }
});

test('an unknown job, or one without a script, is refused', () => {
  const workers = new WorkerService({ run: echo });
  assert.throws(() => workers.lane('render' as JobName), /no worker job named "render"/);
  assert.throws(() => workers.lane('scan'), /"scan" has no script/);
  workers.dispose();
});

test('a script that does not start: ready() is false and its requests fail (never a hang); the dist scripts are the bundles', async () => {
  const workers = new WorkerService({ analysis: { file: join(ROOT, 'no-such-worker.js') } });
  try {
    const lane = workers.lane<Echo>('analysis');
    assert.equal(lane.ready(), false);
    await assert.rejects(lane.ask({ op: 'echo' }), (e: Error) => e instanceof WorkerStartError && /could not start: no script at .*no-such-worker\.js/.test(e.message));
    assert.equal(lane.started, 0, 'no thread for a script that is not there');
  } finally {
    workers.dispose();
  }
  const dist = distScripts('/ext/dist');
  assert.deepEqual(Object.keys(dist).sort(), [...JOB_NAMES].sort());
  assert.equal(dist.scan.file, join('/ext/dist', 'scan-worker.js'));
  assert.equal(dist.run.file, join('/ext/dist', 'run-worker.js'));
  assert.equal(dist.analysis.file, join('/ext/dist', 'analysis-worker.js'));
});

test('a script that throws before its first message fails its requests once and is not started again', async () => {
  const broken = join(tempDir('attn-broken-worker-'), 'broken-worker.js');
  writeFileSync(broken, 'throw new Error("a broken bundle");\n');
  const workers = new WorkerService({ analysis: { file: broken } });
  try {
    const lane = workers.lane<Echo>('analysis');
    assert.equal(lane.ready(), true, 'Node says a broken script only once the thread has started');
    await assert.rejects(lane.ask({ op: 'echo' }), (e: Error) => e instanceof WorkerStartError && e.message === 'the analysis worker could not start: a broken bundle');
    assert.equal(lane.ready(), false);
    await assert.rejects(lane.ask({ op: 'echo' }), WorkerStartError);
    assert.equal(lane.started, 1, 'one thread, not one per request');
    assert.equal(workers.lanesOpen, 0);
  } finally {
    workers.dispose();
  }
});
