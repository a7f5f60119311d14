// A burst of requests is one call, a moment after the last; a cancelled request is none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { debounce } from '../../../../webview/shell/debounce.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a burst of schedules calls once, after the burst is quiet', async () => {
  let calls = 0;
  const d = debounce(() => { calls += 1; }, 30);
  for (let i = 0; i < 5; i++) { d.schedule(); await wait(5); }
  assert.equal(calls, 0, 'not during the burst');
  await wait(60);
  assert.equal(calls, 1);
  d.schedule();
  await wait(60);
  assert.equal(calls, 2, 'a later request is a call of its own');
});

test('cancel forgets a scheduled call', async () => {
  let calls = 0;
  const d = debounce(() => { calls += 1; }, 20);
  d.schedule();
  d.cancel();
  await wait(50);
  assert.equal(calls, 0);
});
