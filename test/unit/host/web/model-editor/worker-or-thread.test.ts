// A web model reader whose Web Worker cannot start reads on the host's thread instead
// (src/host/web/model-editor/worker-or-thread.ts): the worker is only ever asked a bare 'close', so
// the file's bytes are never handed to a worker that failed; the reader's numbers are then the one
// pass's; the fall-back is said once; a worker that starts is the one used; a closed lane asks nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerOrThread } from '../../../../../src/host/web/model-editor/worker-or-thread.js';
import { InThreadLane } from '../../../../../src/host/model-editor/in-thread-lane.js';
import { FileAnswers } from '../../../../../src/host/model-editor/file-answers.js';
import { ModelReader, type FileOpening, type ReaderLane } from '../../../../../src/host/model-editor/reader.js';
import { WorkerStartError } from '../../../../../src/host/workers/start-error.js';
import { RequestError } from '../../../../../src/protocol/requests.js';
import { openAttention } from '../../../../../src/core/files/open.js';
import { headFloat32 } from '../../../../../src/core/model-attention/scan.js';
import { randomAttention, writeSafetensors } from '../../../../support/model-fixture.js';
import { tempDir } from '../../../../support/temp-dir.js';

/** A worker's lane as a test wants it: every message it is asked is kept; `answer` says what comes back. */
class StubLane implements ReaderLane<unknown> {
  asked: object[] = [];
  disposed: Error | undefined;
  constructor(private readonly answer: (message: object) => Promise<unknown>) {}
  ready(): boolean { return true; }
  ask(message: object): Promise<unknown> { this.asked.push(message); return this.answer(message); }
  dispose(why?: Error): void { this.disposed = why ?? new Error('disposed'); }
}

const fromBytes: FileOpening = async (path) => {
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { request: { op: 'openBytes', name: path, bytes: buffer }, transfer: [buffer] };
};

test('a worker that cannot start: the reader reads on the host\'s thread, the worker never given the bytes, the fall-back said once', async () => {
  const file = join(tempDir('attn-worker-or-thread-'), 'm.safetensors');
  writeSafetensors(file, randomAttention(2, 2, 4, 3), 2, 2, 4);
  const stub = new StubLane(() => Promise.reject(new WorkerStartError('the scan worker could not start: no script')));
  const said: string[] = [];
  let threads = 0;
  const reader = new ModelReader({
    lane: (_job, options) => new WorkerOrThread(() => stub as unknown as ReaderLane<never>, () => { threads++; return new InThreadLane(new FileAnswers(), options); }, (why) => said.push(why)),
  }, undefined, fromBytes);
  try {
    const shape = await reader.open(file);
    assert.deepEqual([shape.layers, shape.heads, shape.tokens], [2, 2, 4]);
    const local = openAttention(file);
    assert.deepEqual(Array.from(await reader.head(1, 0, {})), Array.from(headFloat32(local, 1, 0)));
    local.close();
    assert.deepEqual(stub.asked, [{ op: 'close' }], 'the worker was asked nothing but the bare close');
    assert.ok(stub.disposed instanceof WorkerStartError);
    assert.deepEqual(said, ['the scan worker could not start: no script']);
    assert.equal(threads, 1);
  } finally {
    reader.dispose();
  }
});

test('a worker that starts is the lane used; the host\'s thread is never made', async () => {
  const worker = new StubLane(async (m) => ({ echo: m }));
  let threads = 0;
  const lane = new WorkerOrThread<unknown>(() => worker, () => { threads++; return new StubLane(async () => 'thread'); }, () => assert.fail('no fall-back'));
  assert.deepEqual(await lane.ask({ op: 'head', layer: 0, head: 0 }), { echo: { op: 'head', layer: 0, head: 0 } });
  assert.deepEqual(worker.asked, [{ op: 'close' }, { op: 'head', layer: 0, head: 0 }]);
  assert.equal(threads, 0);
  lane.dispose();
  await assert.rejects(lane.ask({ op: 'head' }), /the scan reader was closed/);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(worker.disposed, 'the worker is ended with the lane');
});

test('a worker that started and then failed is the reader\'s error, not a silent switch', async () => {
  const lane = new WorkerOrThread<unknown>(() => new StubLane(() => Promise.reject(new RequestError('the scan worker stopped (out of memory)'))), () => assert.fail('no fall-back'), () => assert.fail('nothing said'));
  await assert.rejects(lane.ask({ op: 'openBytes' }), /the scan worker stopped \(out of memory\)/);
});

test('closed while its worker is still being probed: the worker is ended and what waits is refused, never posted', async () => {
  // A worker whose probe never answers until it is ended (a script still loading, a busy runtime).
  let end: ((e: Error) => void) | undefined;
  const worker = new StubLane(() => new Promise((_resolve, reject) => { end = reject; }));
  const dispose = worker.dispose.bind(worker);
  worker.dispose = (why) => { dispose(why); end?.(why ?? new Error('ended')); };
  const lane = new WorkerOrThread<unknown>(() => worker, () => assert.fail('no fall-back once closed'), () => assert.fail('nothing said'));
  const waiting = lane.ask({ op: 'openBytes' });
  lane.dispose(new RequestError('the document was closed'));
  await assert.rejects(waiting, { message: 'the document was closed' });
  assert.equal(worker.disposed?.message, 'the document was closed', 'the worker lane is ended at once');
  assert.deepEqual(worker.asked, [{ op: 'close' }], 'the request was never posted');
  await assert.rejects(lane.ask({ op: 'head' }), { message: 'the document was closed' });
});

test('closed while the probe is answered: the request is refused, not posted to the ending worker', async () => {
  let answer: (() => void) | undefined;
  const worker = new StubLane((m) => ('op' in m && m.op === 'close' ? new Promise<unknown>((resolve) => { answer = () => resolve({}); }) : Promise.resolve('posted')));
  const lane = new WorkerOrThread<unknown>(() => worker, () => assert.fail('no fall-back'), () => assert.fail('nothing said'));
  const waiting = lane.ask({ op: 'openBytes' });
  await new Promise((resolve) => setTimeout(resolve, 0));
  lane.dispose();
  answer!();
  await assert.rejects(waiting, /the scan reader was closed/);
  assert.deepEqual(worker.asked, [{ op: 'close' }]);
  assert.ok(worker.disposed);
});
