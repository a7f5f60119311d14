// The core's seeded generator: the published xoshiro128** outputs, the same numbers from the same
// seed, and uniforms and Gaussians with the right moments (so generated weights have the variance asked).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRandom, fillGaussian, xoshiro128ss } from '../../../../src/core/linalg/random.js';

test('xoshiro128** from the state [1, 2, 3, 4] gives the C reference\'s first outputs', () => {
  const r = xoshiro128ss([1, 2, 3, 4]);
  assert.deepEqual(Array.from({ length: 6 }, () => r.nextUint32()), [11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  // A second published state (little-endian words of a random seed block) and its ** outputs.
  const s = xoshiro128ss([0x964d4a0c, 0xd40ab895, 0xad7fdecb, 0x3006f0f0]);
  assert.deepEqual(Array.from({ length: 4 }, () => s.nextUint32()), [0xf1391922, 0x6fe53806, 0xa5be2840, 0xf510ee70]);
});

test('the same seed gives the same numbers; other seeds (7 and 8, 1 and 2^32 + 1, −1) give others', () => {
  const draw = (seed: number) => { const r = createRandom(seed); return Array.from({ length: 8 }, () => r.gaussian()); };
  assert.deepEqual(draw(7), draw(7));
  const seen = new Set([7, 8, 1, 2 ** 32 + 1, -1, 0, Number.MAX_SAFE_INTEGER].map((s) => draw(s).join(',')));
  assert.equal(seen.size, 7);
  assert.throws(() => createRandom(0.5), /safe integer/);
  assert.throws(() => createRandom(2 ** 60), /safe integer/);
});

test('seeds that share their low 32 bits never share a stream: 0 and 4,759,230,683, and 20,000 generated pairs lo + k·2^32', () => {
  const first = (seed: number) => { const r = createRandom(seed); return `${r.nextUint32()},${r.nextUint32()}`; };
  assert.notEqual(first(0), first(4_759_230_683), 'the pair the attack found');
  // The pairs that folding the high word into one 32-bit state made collide: each a family of its own.
  let state = 12345;
  const next = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state; };
  const seen = new Map<string, number>();
  for (let c = 0; c < 20_000; c++) {
    const lo = next(), k = (next() % 2 ** 21) - 2 ** 20;
    for (const seed of [lo, k * 2 ** 32 + lo]) {
      const key = first(seed);
      const before = seen.get(key);
      assert.ok(before === undefined || before === seed, `seeds ${before} and ${seed} give one stream`);
      seen.set(key, seed);
    }
  }
  // Seeds below 2^32 keep the streams they had (every generated example's numbers stay the same).
  const r = createRandom(7);
  assert.deepEqual([r.nextUint32(), r.nextUint32()], [272826350, 1131525540]);
});

test('100,000 uniforms lie in [0, 1) with mean 1/2 and variance 1/12', () => {
  const r = createRandom(1);
  const n = 100_000;
  let sum = 0, sq = 0, lo = 1, hi = 0;
  for (let i = 0; i < n; i++) {
    const u = r.uniform();
    sum += u; sq += u * u; lo = Math.min(lo, u); hi = Math.max(hi, u);
  }
  assert.ok(lo >= 0 && hi < 1);
  const mean = sum / n, variance = sq / n - mean * mean;
  // Standard errors: √(1/12/n) ≈ 0.0009 for the mean, about 0.0003 for the variance; 5 of them.
  assert.ok(Math.abs(mean - 0.5) < 0.0046, `mean ${mean}`);
  assert.ok(Math.abs(variance - 1 / 12) < 0.0015, `variance ${variance}`);
});

test('100,000 Gaussians have mean 0, variance 1, no skew, kurtosis 3, and 68.3% within one σ', () => {
  const r = createRandom(42);
  const n = 100_000;
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = r.gaussian();
  let m1 = 0;
  for (const v of x) m1 += v / n;
  let m2 = 0, m3 = 0, m4 = 0, inside = 0;
  for (const v of x) {
    const d = v - m1;
    m2 += d * d / n; m3 += d ** 3 / n; m4 += d ** 4 / n;
    if (Math.abs(v) < 1) inside++;
  }
  // Standard errors at n = 100,000: mean 0.0032, variance 0.0045, skew 0.0077, kurtosis 0.015.
  assert.ok(Math.abs(m1) < 0.016, `mean ${m1}`);
  assert.ok(Math.abs(m2 - 1) < 0.023, `variance ${m2}`);
  assert.ok(Math.abs(m3 / m2 ** 1.5) < 0.04, `skew ${m3 / m2 ** 1.5}`);
  assert.ok(Math.abs(m4 / (m2 * m2) - 3) < 0.08, `kurtosis ${m4 / (m2 * m2)}`);
  assert.ok(Math.abs(inside / n - 0.6827) < 0.0075, `within one σ: ${inside / n}`);
});

test('fillGaussian scales to the variance asked, gives zeros for 0, and refuses a negative or infinite variance', () => {
  const out = fillGaussian(new Float64Array(100_000), createRandom(3), 0.02);
  let sq = 0;
  for (const v of out) sq += v * v;
  assert.ok(Math.abs(sq / out.length - 0.02) < 0.0005, `mean square ${sq / out.length}`);
  assert.deepEqual(Array.from(fillGaussian(new Float64Array(3), createRandom(3), 0)), [0, 0, 0]);
  assert.throws(() => fillGaussian(new Float64Array(1), createRandom(3), -1), /variance/);
  assert.throws(() => fillGaussian(new Float64Array(1), createRandom(3), Infinity), /variance/);
});
