// What bench:model reads from its child processes: the timings line of attn run's summary and
// /usr/bin/time's peak resident set; a run of a stand-in CLI through the same plumbing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attnRun, precisionAccepted, readPeakKb, readTimings } from '../../../../scripts/bench/runs.js';
import { tempDir } from '../../../support/temp-dir.js';

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

// A stand-in for dist/attn.js: its usage names --precision or not; a run prints the summary's
// timings (the precision it was given in the first one), or refuses with exit 1 when the folder says so.
const fakeCli = (withPrecision: boolean) => {
  const file = join(tempDir('attn-bench-cli-'), 'attn.js');
  writeFileSync(file, `
const argv = process.argv.slice(2);
if (argv.includes('--help')) { console.log('attn run DIR (--text T | --text-file F) [--max-tokens N]${withPrecision ? ' [--precision f32|f64]' : ''}'); process.exit(0); }
if (argv[1].endsWith('refused')) { console.error('a run of 8 tokens needs about 4.1 GB, over the budget of 3.0 GB'); process.exit(1); }
const p = argv.indexOf('--precision');
const held = Buffer.alloc(64 * 1024 * 1024, 1);
console.log('dir: gpt2\\nload ' + (p < 0 ? 1 : argv[p + 1] === 'f32' ? 11 : 12) + ' ms, tokenize 2 ms, forward ' + argv[argv.indexOf('--max-tokens') + 1] + ' ms' + held[5]);
`);
  return file;
};

test('precision is detected from the usage of the CLI measured', () => {
  assert.equal(precisionAccepted(fakeCli(true)), true);
  assert.equal(precisionAccepted(fakeCli(false)), false);
});

test('a run in a fresh process: its timings, its wall time, its peak under /usr/bin/time, the precision passed', () => {
  const cli = fakeCli(true);
  const o = attnRun('model', 'text.txt', 128, 'f32', undefined, cli);
  assert.ok(!('refused' in o));
  assert.deepEqual([o.precision, o.loadMs, o.tokenizeMs, o.forwardMs], ['f32', 11, 2, 128]);
  assert.ok(o.wallMs > 0);
  assert.ok(o.peakMB > 64, `the child's 64 MB buffer is in its peak (${o.peakMB} MB)`);
  const plain = attnRun('model', 'text.txt', 8, undefined, undefined, cli);
  assert.deepEqual([plain.precision, 'loadMs' in plain && plain.loadMs], ['f64 (default)', 1]);
});

test('a refused run keeps the refusal\'s first line, its wall time and its peak', () => {
  const o = attnRun('refused', 'text.txt', 8, 'f32', undefined, fakeCli(true));
  assert.ok('refused' in o);
  assert.equal(o.refused, 'a run of 8 tokens needs about 4.1 GB, over the budget of 3.0 GB');
  assert.ok(o.peakMB > 0);
});
