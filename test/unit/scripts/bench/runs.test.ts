// What bench:model reads from its child processes: the timings line of attn run's summary and
// /usr/bin/time's peak resident set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPeakKb, readTimings } from '../../../../scripts/bench/runs.js';

test('the timings are read from the summary\'s last line, whatever comes before it', () => {
  const summary = 'dir: gpt2, 12 layers × 12 heads\n128 tokens: "The" …\nnext: " a" 0.0003\nload 204 ms, tokenize 3 ms, forward 3163 ms';
  assert.deepEqual(readTimings(summary), { loadMs: 204, tokenizeMs: 3, forwardMs: 3163 });
  assert.equal(readTimings('a run of 16 tokens needs about 4.0 GB, over the budget'), undefined);
});

test('the peak is the last line of /usr/bin/time\'s file, in KB; a signal\'s note before it is passed over', () => {
  assert.equal(readPeakKb('454380\n'), 454380);
  assert.equal(readPeakKb('Command exited with non-zero status 1\n258096\n'), 258096);
  assert.equal(readPeakKb(''), undefined);
  assert.equal(readPeakKb('Command terminated by signal 9'), undefined);
});
