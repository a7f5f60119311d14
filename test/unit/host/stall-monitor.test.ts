// The longest stall of the host's thread (src/host/stall-monitor.ts): a 120 ms busy loop shows as a
// stall of about that length, less the sampler's 10 ms resolution; reset forgets it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StallMonitor } from '../../../src/host/stall-monitor.js';

test('a busy loop of 120 ms is measured; reset forgets it', async () => {
  const monitor = new StallMonitor();
  await new Promise((resolve) => setTimeout(resolve, 30));
  const end = performance.now() + 120;
  while (performance.now() < end) { /* the thread is busy */ }
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.ok(monitor.maxMs() >= 90, `measured ${monitor.maxMs()} ms`);
  monitor.reset();
  assert.equal(monitor.maxMs(), 0);
  monitor.dispose();
});
