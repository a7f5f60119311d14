// A panel's clocks (src/host/panel/metrics.ts): the wait after an edit is the first-update delay until
// something was painted, then half the last version's cost (analysis + drawing); edit → paint stops at
// the paint of the edited version or a later one, never an earlier one; show → paint at the next paint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PanelMetrics } from '../../../../src/host/panel/metrics.js';
import type { Timings } from '../../../../src/host/panel/info.js';
import { FIRST_UPDATE_DELAY_MS, MAX_UPDATE_DELAY_MS, MIN_UPDATE_DELAY_MS } from '../../../../src/host/update-delay.js';

test('the wait after an edit follows the cost of the last paint', () => {
  const timings: Timings = { activateMs: 0 };
  const metrics = new PanelMetrics(timings);
  assert.equal(metrics.edited(2), FIRST_UPDATE_DELAY_MS);
  metrics.analysed(40, 1234);
  metrics.painted(2, 80);
  assert.deepEqual([timings.lastAnalysisMs, timings.lastMessageBytes], [40, 1234]);
  assert.equal(metrics.edited(3), 60, 'half of 40 + 80');
  assert.equal(timings.lastUpdateDelayMs, 60);
  metrics.analysed(900);
  metrics.painted(3, 900);
  assert.equal(metrics.edited(4), MAX_UPDATE_DELAY_MS);
});

test('edit → paint waits for the edited version; show → paint for the next paint', async () => {
  const timings: Timings = { activateMs: 0 };
  const metrics = new PanelMetrics(timings);
  metrics.shown();
  metrics.edited(5);
  await new Promise((resolve) => setTimeout(resolve, 5));
  metrics.painted(4, 1);
  assert.ok(timings.lastShowToPaintMs! >= 4, 'the show clock stopped at the first paint');
  assert.equal(timings.lastEditToPaintMs, undefined, 'an older version painted: the edit is not on screen yet');
  metrics.painted(5, 1);
  assert.ok(timings.lastEditToPaintMs! >= 4);
  const first = timings.lastShowToPaintMs;
  metrics.painted(6, 1);
  assert.equal(timings.lastShowToPaintMs, first, 'not restarted without a show');
});

test("show → ready is the webview's first 'ready' after a show, and a later 'ready' (the webview shown again) does not move it", async () => {
  const timings: Timings = { activateMs: 0 };
  const metrics = new PanelMetrics(timings);
  metrics.ready();
  assert.equal(timings.lastShowToReadyMs, undefined, 'no show, no clock');
  metrics.shown();
  await new Promise((resolve) => setTimeout(resolve, 5));
  metrics.ready();
  const first = timings.lastShowToReadyMs;
  assert.ok(first !== undefined && first >= 4);
  await new Promise((resolve) => setTimeout(resolve, 5));
  metrics.ready();
  assert.equal(timings.lastShowToReadyMs, first);
  metrics.painted(1, 1);
  metrics.shown();
  assert.equal(timings.lastShowToReadyMs, undefined, 'a new show starts a new clock');
});

test('an edit after a quiet spell longer than its debounce is shown at once; one that follows another within it waits', async () => {
  const timings: Timings = { activateMs: 0 };
  const metrics = new PanelMetrics(timings);
  metrics.edited(2);
  assert.equal(metrics.afterQuiet, true, 'the first edit has nothing before it to wait for');
  metrics.analysed(10);
  metrics.painted(2, 10); // the debounce is now MIN_UPDATE_DELAY_MS (25 ms)
  assert.equal(metrics.edited(3), MIN_UPDATE_DELAY_MS);
  assert.equal(metrics.afterQuiet, false, 'an edit right after another: typing, so the debounce holds');
  assert.equal(timings.lastUpdateDelayMs, MIN_UPDATE_DELAY_MS, 'the debounce chosen is reported either way');
  await new Promise((resolve) => setTimeout(resolve, MIN_UPDATE_DELAY_MS + 15));
  metrics.edited(4);
  assert.equal(metrics.afterQuiet, true, 'longer than the debounce since the last edit');
  metrics.updating();
  assert.ok(timings.lastWaitMs !== undefined && timings.lastWaitMs >= 0 && timings.lastWaitMs < MIN_UPDATE_DELAY_MS, `the wait taken: ${timings.lastWaitMs}`);
});

test("post → 'painted' is timed for the version posted, and the webview's drawing is kept", async () => {
  const timings: Timings = { activateMs: 0 };
  const metrics = new PanelMetrics(timings);
  metrics.posted(7);
  await new Promise((resolve) => setTimeout(resolve, 5));
  metrics.painted(6, 3);
  assert.equal(timings.lastPostToPaintMs, undefined, 'an older version painted');
  metrics.painted(7, 4);
  assert.ok(timings.lastPostToPaintMs! >= 4);
  assert.equal(timings.lastDrawMs, 4);
});
