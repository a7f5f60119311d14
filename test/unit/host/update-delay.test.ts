import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateDelay, FIRST_UPDATE_DELAY_MS, MAX_UPDATE_DELAY_MS, MIN_UPDATE_DELAY_MS } from '../../../src/host/update-delay.js';

test('a cheap redraw is followed almost at once, an expensive one waits half as long as it costs, up to a cap', () => {
  assert.equal(updateDelay(3), MIN_UPDATE_DELAY_MS);
  assert.equal(updateDelay(120.4), 60);
  assert.equal(updateDelay(5000), MAX_UPDATE_DELAY_MS);
});

test('with no redraw yet, or a nonsense cost, the first delay is used', () => {
  assert.equal(updateDelay(undefined), FIRST_UPDATE_DELAY_MS);
  assert.equal(updateDelay(NaN), FIRST_UPDATE_DELAY_MS);
});
