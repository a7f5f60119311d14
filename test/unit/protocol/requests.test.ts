// The one request/reply helper (src/protocol/requests.ts): ids, stale and forged replies, timeouts,
// a channel that dies, and a send that throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Requests, RequestError } from '../../../src/protocol/requests.js';

test('each request gets its own id and its own reply, in any order', async () => {
  const requests = new Requests<string>();
  const sent: number[] = [];
  const a = requests.ask((id) => sent.push(id));
  const b = requests.ask((id) => sent.push(id));
  assert.deepEqual(sent, [1, 2]);
  assert.equal(requests.size, 2);
  assert.equal(requests.settle(2, 'second'), true);
  assert.equal(requests.settle(1, 'first'), true);
  assert.deepEqual(await Promise.all([a, b]), ['first', 'second']);
  assert.equal(requests.size, 0);
});

test('a reply for an id never asked, already answered or not a number is dropped', async () => {
  const requests = new Requests<string>();
  const a = requests.ask(() => {});
  for (const forged of [0, 2, -1, 1.5, '1', null, undefined, NaN]) assert.equal(requests.settle(forged, 'x'), false, String(forged));
  assert.equal(requests.isPending(1), true);
  assert.equal(requests.settle(1, 'ok'), true);
  assert.equal(requests.settle(1, 'again'), false);
  assert.equal(requests.isPending(1), false);
  assert.equal(await a, 'ok');
});

test('fail rejects one request; failAll rejects every one still waiting', async () => {
  const requests = new Requests<number>();
  const a = requests.ask(() => {});
  const b = requests.ask(() => {});
  const c = requests.ask(() => {});
  assert.equal(requests.fail(1, new Error('one')), true);
  await assert.rejects(a, /one/);
  requests.failAll(new RequestError('cancelled'));
  await assert.rejects(b, /cancelled/);
  await assert.rejects(c, /cancelled/);
  assert.equal(requests.size, 0);
});

test('a closed channel rejects what waits and every later request', async () => {
  const requests = new Requests<number>();
  const waiting = requests.ask(() => {});
  requests.close(new Error('the worker stopped (exit 1)'));
  await assert.rejects(waiting, /exit 1/);
  let sent = false;
  await assert.rejects(requests.ask(() => { sent = true; }), /exit 1/);
  assert.equal(sent, false);
});

test('a request with no answer in time rejects, and a late answer is dropped', async () => {
  const requests = new Requests<string>({ timeoutMs: 10, timeoutMessage: (id) => `request ${id} timed out` });
  const a = requests.ask(() => {});
  await assert.rejects(a, /request 1 timed out/);
  assert.equal(requests.settle(1, 'late'), false);
});

test('an answer in time clears the timer (the process is not held open)', async () => {
  const requests = new Requests<string>({ timeoutMs: 60_000 });
  const a = requests.ask(() => {});
  requests.settle(1, 'quick');
  assert.equal(await a, 'quick');
});

test('a send that throws rejects its request and leaves nothing waiting', async () => {
  const requests = new Requests<string>({ timeoutMs: 60_000 });
  await assert.rejects(requests.ask(() => { throw new Error('cannot post'); }), /cannot post/);
  assert.equal(requests.size, 0);
});

test('a reply the request says does not answer it is dropped, and the request waits for one that does', async () => {
  const requests = new Requests<{ format: string }>();
  const asked = requests.ask(() => {}, (reply) => reply.format === 'svg');
  assert.equal(requests.settle(1, { format: 'png' }), false);
  assert.equal(requests.isPending(1), true);
  assert.equal(requests.settle(1, { format: 'svg' }), true);
  assert.deepEqual(await asked, { format: 'svg' });
});
