// scripts/vscode/bench-wait.mjs: a bench's wait lasts as long as its work moves, and gives up, saying
// what it waited for, only after a quiet time; seeded schedules of progress on a fake clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StalledError, untilQuiet } from '../../../../scripts/vscode/bench-wait.mjs';
import { between, seeded } from '../../../support/random.js';

/** A fake clock that moves `step` ms each time it is read. */
function clock(step: number) {
  let t = 0;
  return { now: () => (t += step), get t() { return t; } };
}

test('slow but moving work is waited for far past the quiet time', async () => {
  const c = clock(100);
  let keys = 0;
  // A key every 5 s of fake time, 10 keys: 50 s in all, with a 6 s quiet time.
  const got = await untilQuiet({
    what: 'the browser to type', quietMs: 6_000, pollMs: 0, now: c.now,
    progress: () => { keys = Math.min(10, Math.floor(c.t / 5_000)); return keys; },
    probe: () => keys === 10 && 'typed',
  });
  assert.equal(got, 'typed');
  assert.ok(c.t >= 50_000);
});

test('work that stops moving ends the wait with a sentence naming what was waited for', async () => {
  const c = clock(10);
  await assert.rejects(untilQuiet({ what: 'the browser to type', quietMs: 1_000, pollMs: 0, now: c.now, progress: () => Math.min(3, Math.floor(c.t / 200)), probe: () => undefined }),
    (e: unknown) => e instanceof StalledError && /^nothing moved for 1 s while waiting for the browser to type$/.test(e.message));
  assert.ok(c.t >= 1_600 && c.t < 1_700, `gave up once quiet for 1 s after the last move at 600 ms (at ${c.t})`);
});

test('seeded schedules: the wait ends with the value whenever no gap between moves exceeds the quiet time, else stalls', async () => {
  const rand = seeded(31);
  for (let c = 0; c < 100; c++) {
    const quietMs = between(rand, 100, 1_000);
    const moves: number[] = [];
    let t = 0;
    for (let k = between(rand, 0, 8); k > 0; k--) moves.push(t += between(rand, 1, 1_400));
    const doneAt = t + between(rand, 1, 1_400);
    const gaps = [...moves, doneAt].map((m, i, all) => m - (i === 0 ? 0 : all[i - 1]));
    const fake = clock(50);
    const run = untilQuiet({
      what: 'x', quietMs, pollMs: 0, now: fake.now,
      progress: () => moves.filter((m) => m <= fake.t).length,
      probe: () => fake.t >= doneAt && 'done',
    });
    // A gap of exactly the quiet time, give or take the clock's step, may go either way.
    if (gaps.some((g) => Math.abs(g - quietMs) <= 150)) { await run.catch(() => {}); continue; }
    if (gaps.every((g) => g < quietMs)) assert.equal(await run, 'done', `case ${c}`);
    else await assert.rejects(run, StalledError, `case ${c}`);
  }
});
