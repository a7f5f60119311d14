// A model spec's run on the web gives the desktop's numbers, bit for bit: the induction example's
// folder (examples/models/induction-gpt2) read into memory, run by the built web worker
// (dist/web/run-worker.js, in a browser-like global scope: no Node, no kernel threads) and, where
// there is no Worker, on the calling thread (ThreadRunLane); against the desktop's run worker
// (dist/run-worker.js, node:fs and kernel threads). The same next-token list, the same attention of
// every head; layer 2 head 1's last " cat" puts at least 0.9999 on " sat". Relaxed SIMD is on, as in
// current browsers and VS Code (Node 20 needs its flag, which the desktop's workers set): both sides'
// float32 products then take the fused multiply-add kernel.
import '../../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunClient, type ReadRunFiles } from '../../../../../src/host/checkpoint-run/client.js';
import { distScripts, WorkerService } from '../../../../../src/host/workers/service.js';
import { WebWorkerLane } from '../../../../../src/host/web/web-worker-lane.js';
import { ThreadRunLane } from '../../../../../src/host/web/model-run/thread-lane.js';
import { FallbackRunLane } from '../../../../../src/host/web/model-run/run-lanes.js';
import type { MemoryEntry } from '../../../../../src/core/checkpoint-files/folder-files.js';
import { startedWorkers, withFakeWorkers, workerScripts } from '../../../../support/fake-web-worker.js';
import { ROOT } from '../../../../support/paths.js';
import { enableRelaxedSimd } from '../../../../../src/core/threads/kernel-simd.js';

enableRelaxedSimd();

const FOLDER = join(ROOT, 'examples', 'models', 'induction-gpt2');
const TEXT = 'The cat sat on the mat. The cat';
const WEB_FOLDER = 'vscode-test-web://mount/examples/models/induction-gpt2';

/** The example's folder as the web host hands it over: every file's bytes, by name. */
function induction(): ReadRunFiles {
  const entries = new Map<string, MemoryEntry>(readdirSync(FOLDER).map((name) => [name, new Uint8Array(readFileSync(join(FOLDER, name)))]));
  return { key: 'induction', entries };
}

/** The run's next tokens and every head's weights, as the model views read them. */
async function numbers(client: RunClient, folder: string, files?: ReadRunFiles, precision: 'f32' | 'f64' = 'f32') {
  const report = await client.run(folder, TEXT, undefined, precision, undefined, undefined, files);
  const reader = client.reader();
  const shape = await reader.open('run');
  const heads: Float32Array[] = [];
  for (let layer = 0; layer < 2; layer++) for (let head = 0; head < 2; head++) heads.push(await reader.head(layer, head, {}));
  return { report, shape, heads };
}

const desktop = new Map<string, Awaited<ReturnType<typeof numbers>>>();
async function desktopNumbers(precision: 'f32' | 'f64') {
  if (!desktop.has(precision)) {
    const client = new RunClient(new WorkerService(distScripts(join(ROOT, 'dist'))));
    try {
      desktop.set(precision, await numbers(client, FOLDER, undefined, precision));
    } finally {
      client.dispose();
    }
  }
  return desktop.get(precision)!;
}

function assertSame(web: Awaited<ReturnType<typeof numbers>>, disk: Awaited<ReturnType<typeof numbers>>): void {
  assert.deepEqual(web.report.next, disk.report.next, 'the same next tokens and probabilities');
  assert.deepEqual(web.shape, disk.shape, 'the same shape, as the views open it');
  assert.deepEqual(web.report.ids, disk.report.ids);
  assert.deepEqual(web.report.tokens, disk.report.tokens);
  assert.equal(web.report.next[0].token, ' sat');
  web.heads.forEach((h, i) => assert.deepEqual(Buffer.from(h.buffer, h.byteOffset, h.byteLength), Buffer.from(disk.heads[i].buffer, disk.heads[i].byteOffset, disk.heads[i].byteLength), `head ${i}: bit for bit`));
  // Layer 2 head 1 (the induction head): the last " cat" (the last query) on " sat" (key 2).
  const n = web.report.ids.length;
  const induction = web.heads[2];
  assert.equal(web.report.tokens[n - 1], ' cat');
  assert.equal(web.report.tokens[2], ' sat');
  assert.ok(induction[(n - 1) * n + 2] >= 0.9999, `the last " cat" puts ${induction[(n - 1) * n + 2]} on " sat"`);
}

test('the web run worker (the built bundle, files from memory) gives the desktop worker\'s numbers bit for bit', () => withFakeWorkers(async () => {
  workerScripts.set('blob:run', readFileSync(join(ROOT, 'dist', 'web', 'run-worker.js'), 'utf8'));
  for (const precision of ['f32', 'f64'] as const) {
    const client = new RunClient({ lane: (_job, options) => new WebWorkerLane(Promise.resolve('blob:run'), options, 'run') });
    try {
      assertSame(await numbers(client, WEB_FOLDER, induction(), precision), await desktopNumbers(precision));
      assert.equal(client.workersStarted, 1);
    } finally {
      client.dispose();
    }
  }
}));

test('with no Worker the run is answered on the calling thread with the same numbers', async () => {
  const client = new RunClient({ lane: (_job, options) => new ThreadRunLane(options) });
  try {
    assertSame(await numbers(client, WEB_FOLDER, induction()), await desktopNumbers('f32'));
    assert.equal(client.workersStarted, 1, 'one runner, this thread\'s');
  } finally {
    client.dispose();
  }
});

test('the calling thread runs a request only after a turn of its event loop, and not one failed meanwhile (its files kept)', async () => {
  const answered: number[] = [];
  const lane = new ThreadRunLane<unknown>({ receive: (m, requests) => { answered.push((m as { id: number }).id); requests.settle((m as { id: number }).id, m); } });
  try {
    let id = 0;
    const first = lane.ask({ op: 'run', folder: WEB_FOLDER, text: TEXT, files: Object.fromEntries(induction().entries) }, { sent: (i) => { id = i; } });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    assert.deepEqual(answered, [], 'not run on the caller\'s stack, nor in its microtasks');
    lane.fail(id, new Error('replaced'));
    await assert.rejects(first, /replaced/);
    const second = await lane.ask({ op: 'run', folder: WEB_FOLDER, text: TEXT });
    assert.equal((second as { run: { next: { token: string }[] } }).run.next[0].token, ' sat');
    assert.deepEqual(answered, [id, id + 1], 'the failed request answered as cancelled, not run; the next one ran on the files it brought');
  } finally {
    lane.dispose();
  }
});

test('the folder\'s files are posted once per worker: an edit of the text runs without them, the model kept', () => withFakeWorkers(async () => {
  workerScripts.set('blob:run', readFileSync(join(ROOT, 'dist', 'web', 'run-worker.js'), 'utf8'));
  const client = new RunClient({ lane: (_job, options) => new WebWorkerLane(Promise.resolve('blob:run'), options, 'run') });
  const posted: unknown[] = [];
  try {
    const files = induction();
    await client.run(WEB_FOLDER, TEXT, undefined, 'f32', undefined, undefined, files);
    const worker = startedWorkers[0];
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (data: unknown) => { posted.push(data); post(data); };
    const again = await client.run(WEB_FOLDER, 'A dog ran. A dog', undefined, 'f32', undefined, undefined, files);
    assert.equal(again.next[0].token, ' ran');
    assert.equal(again.timings.loadMs, 0, 'the model stayed loaded');
    assert.equal((posted[0] as { files?: unknown }).files, undefined, 'no files posted again');
  } finally {
    client.dispose();
  }
}));

test('a run worker that cannot start leaves the run on the calling thread, said once, with the same numbers', () => withFakeWorkers(async () => {
  for (const url of [Promise.reject(new Error('no dist/web/run-worker.js')), Promise.resolve('blob:missing')]) {
    const lines: string[] = [];
    const client = new RunClient({ lane: (_job, options) => new FallbackRunLane(new WebWorkerLane(url, options, 'run'), options, (line) => lines.push(line)) });
    try {
      assertSame(await numbers(client, WEB_FOLDER, induction()), await desktopNumbers('f32'));
      const again = await client.run(WEB_FOLDER, 'A dog ran. A dog', undefined, 'f32', undefined, undefined, induction());
      assert.equal(again.next[0].token, ' ran');
      assert.equal(lines.length, 1);
      assert.match(lines[0], /run worker could not start: .*running the model on the extension host's thread instead/);
    } finally {
      client.dispose();
    }
  }
}));
