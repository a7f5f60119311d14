// The error function behind the exact GELU (src/core/checkpoint/erf.ts) against libm's erf (Python's
// math.erf, what PyTorch's GELU calls in float64) at 20,000 seeded points over ±8, each side of the
// series/continued-fraction seam at 2.5 and the cut to ±1 at 6 included: within 2·10⁻¹⁵; odd; ±1 at
// ±∞, NaN at NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { erf } from '../../../../src/core/checkpoint/erf.js';
import { seeded } from '../../../support/random.js';

test('erf agrees with libm\'s to 2e-15 over ±8, is odd, and keeps ±∞ and NaN', () => {
  const rand = seeded(2026);
  const xs = [0, 2.5, -2.5, 2.5 - 1e-15, 6, 6 - 1e-12, 1e-300, ...Array.from({ length: 20000 }, () => (rand() - 0.5) * 16)];
  const r = spawnSync('/usr/bin/python3', ['-c', 'import json, math, sys; print(json.dumps([math.erf(x) for x in json.load(sys.stdin)]))'], { input: JSON.stringify(xs), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const want = JSON.parse(r.stdout) as number[];
  let worst = 0;
  xs.forEach((x, i) => { worst = Math.max(worst, Math.abs(erf(x) - want[i])); });
  assert.ok(worst < 2e-15, `worst difference ${worst}`);
  for (const x of xs.slice(0, 200)) assert.equal(erf(-x), -erf(x));
  assert.deepEqual([erf(Infinity), erf(-Infinity), Number.isNaN(erf(NaN))], [1, -1, true]);
});
