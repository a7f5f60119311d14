// A burst of requests is one call, a moment after the last; a cancelled request is none. On mocked
// timers: on a loaded 2-core machine real 5 ms waits stretched past the 30 ms delay.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { debounce } from '../../../../webview/shell/debounce.js';

test('a burst of schedules calls once, after the burst is quiet', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let calls = 0;
    const d = debounce(() => { calls += 1; }, 30);
    for (let i = 0; i < 5; i++) { d.schedule(); mock.timers.tick(5); }
    assert.equal(calls, 0, 'not during the burst');
    mock.timers.tick(29);
    assert.equal(calls, 1, 'once, 30 ms after the last request');
    mock.timers.tick(100);
    assert.equal(calls, 1, 'and only once');
    d.schedule();
    mock.timers.tick(30);
    assert.equal(calls, 2, 'a later request is a call of its own');
  } finally {
    mock.timers.reset();
  }
});

test('cancel forgets a scheduled call', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let calls = 0;
    const d = debounce(() => { calls += 1; }, 20);
    d.schedule();
    d.cancel();
    mock.timers.tick(50);
    assert.equal(calls, 0);
  } finally {
    mock.timers.reset();
  }
});
