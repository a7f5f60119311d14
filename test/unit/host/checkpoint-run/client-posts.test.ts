// What the run client posts to its lane (a scripted lane here, answering when the test says): without
// a SharedArrayBuffer (a browser page that is not cross-origin isolated) the worker cannot be told to
// stop a run, so a run asked while the worker is still on an older one waits for that answer, and of
// the runs asked meanwhile only the newest is posted; a model's files go with a run as buffers moved
// to the worker (a view on part of a buffer copied out first), and only when its worker lacks them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunCancelled, RunClient, type RunLane } from '../../../../src/host/checkpoint-run/client.js';
import { Requests } from '../../../../src/protocol/requests.js';
import type { RunResponse } from '../../../../src/protocol/checkpoint-run.js';
import type { AskOptions, LaneOptions } from '../../../../src/host/workers/service.js';

type Posted = { message: { id: number; op: string; text?: string; files?: Record<string, Uint8Array> }; transfer: readonly ArrayBuffer[] };

/** A lane that records what is posted and answers a run when `answer(id)` is called. */
function scriptedLane() {
  const posted: Posted[] = [];
  let options!: LaneOptions<unknown>;
  const requests = new Requests<unknown>();
  const lane: RunLane<unknown> = {
    started: 1,
    alive: true,
    ask(message: object, o: AskOptions<unknown> = {}) {
      return requests.ask((id) => { o.sent?.(id); posted.push({ message: { ...message, id } as Posted['message'], transfer: o.transfer ?? [] }); });
    },
    fail: (id, error) => requests.fail(id, error),
    dispose: (why) => requests.close(why ?? new Error('closed')),
  };
  const answer = (id: number) => {
    const text = posted.find((p) => p.message.id === id)?.message.text ?? '';
    const run = { shape: {}, next: [{ token: text, p: 1 }], ids: [], tokens: [], reused: 0, timings: { loadMs: 0, forwardMs: 0 }, model: {} };
    options.receive!({ id, ok: true, run } as unknown as RunResponse, requests);
  };
  return { lanes: { lane: <R>(_job: 'run', o: LaneOptions<R>) => { options = o as LaneOptions<unknown>; return lane as RunLane<R>; } }, posted, answer };
}

/** A client made while the runtime has no SharedArrayBuffer. */
function unsharedClient(lanes: ReturnType<typeof scriptedLane>['lanes']): RunClient {
  const shared = globalThis.SharedArrayBuffer;
  Reflect.deleteProperty(globalThis, 'SharedArrayBuffer');
  try {
    return new RunClient(lanes);
  } finally {
    globalThis.SharedArrayBuffer = shared;
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('without a shared cancel flag, the runs asked while the worker is on one wait, and only the newest is posted', async () => {
  const { lanes, posted, answer } = scriptedLane();
  const client = unsharedClient(lanes);
  const a = client.run('/m', 'a');
  const b = client.run('/m', 'b');
  const c = client.run('/m', 'c');
  await assert.rejects(a, RunCancelled);
  await assert.rejects(b, RunCancelled);
  await tick();
  assert.deepEqual(posted.map((p) => p.message.text), ['a'], 'nothing posted while the worker is on "a"');
  answer(posted[0].message.id); // the worker finished "a" (its promise had rejected already)
  await tick();
  assert.deepEqual(posted.map((p) => p.message.text), ['a', 'c'], '"b" was never posted');
  answer(posted[1].message.id);
  assert.equal((await c).next[0].token, 'c');
  // A run asked when the worker is idle is posted at once.
  void client.run('/m', 'd').catch(() => {});
  assert.deepEqual(posted.map((p) => p.message.text), ['a', 'c', 'd']);
  client.dispose();
});

test('with a shared cancel flag a newer run is posted at once (the worker stops the older between layers)', async () => {
  const { lanes, posted } = scriptedLane();
  const client = new RunClient(lanes);
  const a = client.run('/m', 'a');
  void client.run('/m', 'b').catch(() => {});
  await assert.rejects(a, RunCancelled);
  assert.deepEqual(posted.map((p) => p.message.text), ['a', 'b']);
  client.dispose();
});

test('a model\'s files go with a run moved, not copied, and only when the worker lacks them', async () => {
  const { lanes, posted, answer } = scriptedLane();
  const client = new RunClient(lanes);
  const whole = new Uint8Array([1, 2, 3, 4]);
  const part = new Uint8Array(new ArrayBuffer(16), 4, 4);
  const files = { key: 'k1', entries: new Map<string, Uint8Array | 'folder'>([['model.safetensors', whole], ['tokenizer.json', part], ['vocab.txt', 'folder']]) };
  assert.equal(client.needsFiles('k1'), true);
  const run = client.run('/m', 'a', undefined, undefined, undefined, undefined, files);
  const sent = posted[0];
  assert.equal(sent.message.files?.['model.safetensors'], whole);
  assert.deepEqual([...sent.message.files!['tokenizer.json']], [0, 0, 0, 0]);
  assert.equal(sent.transfer.length, 2);
  assert.equal(sent.transfer[0], whole.buffer);
  assert.equal(sent.transfer[1].byteLength, 4, 'the part copied out, not its whole buffer moved');
  answer(sent.message.id);
  await run;
  assert.equal(client.needsFiles('k1'), false, 'the worker holds them');
  assert.equal(client.needsFiles('k2'), true, 'other files (the model changed)');
  client.dispose();
});
