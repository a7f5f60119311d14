// Numbers rounded for a label never pass for an exact value they are not (0.0003 as "0", 0.9993 as
// "1"), and rounding noise of a computation (−8.88e-16 from terms of size 10) reads as ≈0, not as
// a number; a real value however small still reads as itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dotTerms, fmtFixed, fmtNear, fmtRounded, fmtWeight, largestAbs, roundingNoise } from '../../../../webview/kit/format.js';
import { seeded } from '../../../support/random.js';

/** The interval a label claims its number lies in: "<0.01" → [0, 0.01), "0.35" → ±half a unit of its last digit. */
function claimed(text: string): [number, number] {
  if (text === '≈0') return [-Infinity, Infinity];
  const m = /^([<>]?)(-?\d+(?:\.(\d+))?)$/.exec(text);
  assert.ok(m, `"${text}" is a number, "<x", ">x" or "≈0"`);
  const x = Number(m[2]);
  if (m[1] === '<') return [0, x];
  if (m[1] === '>') return [x, 1];
  const half = m[3] ? 0.5 * 10 ** -m[3].length : 0.5;
  return [x - half - 1e-12, x + half + 1e-12];
}

/** Weights of every kind a softmax gives: exact 0 and 1, tiny, near 1, ordinary. */
function weightOf(rand: () => number): number {
  const k = Math.floor(rand() * 6);
  if (k === 0) return 0;
  if (k === 1) return 1;
  if (k === 2) return rand() * 10 ** -(1 + Math.floor(rand() * 18));
  if (k === 3) return 1 - rand() * 10 ** -(1 + Math.floor(rand() * 15));
  return rand();
}

test('a weight reads "0" or "1" only when it is exactly 0 or 1, and its label never claims a range it is outside', () => {
  const rand = seeded(0x5eed15);
  for (let k = 0; k < 5000; k++) {
    const w = weightOf(rand);
    for (const digits of [1, 2, 3, 4]) {
      for (const [name, text] of [['fmtWeight', fmtWeight(w, digits)], ['fmtRounded', fmtRounded(w, digits, true)]] as const) {
        const where = `case ${k}: ${name}(${w}, ${digits}) = "${text}"`;
        assert.equal(text === '0', w === 0, where);
        assert.equal(text === '1', w === 1, where);
        assert.doesNotMatch(text, /e/, where);
        const [lo, hi] = claimed(text);
        assert.ok(w >= lo && w <= hi, `${where}: outside [${lo}, ${hi}]`);
      }
    }
  }
  // Weights of the raw example's matrix that once read as an exact 0 and 1.
  assert.equal(fmtWeight(0.0003, 2), '<0.01');
  assert.equal(fmtWeight(0.9993, 2), '>0.99');
  assert.equal(fmtWeight(0.9993, 3), '0.999');
  assert.equal(fmtWeight(0.99996, 4), '>0.9999');
});

test('any number rounded for a cell reads "0" only when it is 0, and within half a unit of what it says', () => {
  const rand = seeded(0xce11);
  for (let k = 0; k < 5000; k++) {
    const sign = rand() < 0.5 ? -1 : 1;
    const v = rand() < 0.1 ? 0 : sign * rand() * 10 ** (3 - Math.floor(rand() * 22));
    for (const digits of [1, 2, 3]) {
      const text = fmtRounded(v, digits);
      const where = `case ${k}: fmtRounded(${v}, ${digits}) = "${text}"`;
      assert.equal(text === '0', v === 0, where);
      if (text === '≈0') assert.ok(v !== 0 && Math.abs(v) < 10 ** -digits, where);
      else if (!/e/.test(text)) {
        const [lo, hi] = claimed(text);
        assert.ok(v >= lo && v <= hi, `${where}: outside [${lo}, ${hi}]`);
      }
    }
  }
});

test('fixed digits: 2.2 reads 2.20 as a description rounded to 2 places writes it; integers stay whole', () => {
  assert.equal(fmtFixed(2.2, 2), '2.20');
  assert.equal(fmtFixed(1.4142, 2), '1.41');
  assert.equal(fmtFixed(2, 2), '2');
  assert.equal(fmtFixed(-0.5, 2), '-0.50');
  assert.equal(fmtFixed(0.001, 2), '≈0');
  assert.equal(fmtFixed(0, 2), '0');
  const rand = seeded(0xf1ed);
  for (let k = 0; k < 2000; k++) {
    const v = (rand() - 0.5) * 10 ** (4 - Math.floor(rand() * 8));
    const text = fmtFixed(v, 2);
    if (Number.isInteger(v) || text === '≈0') continue;
    assert.match(text, /^-?\d+\.\d\d$/, `fmtFixed(${v})`);
  }
});

/** Two vectors whose exact dot product is 0: pairs (x, y) against (y, −x), shuffled and scaled. */
function orthogonalPair(rand: () => number): { a: number[]; b: number[] } {
  const pairs = 1 + Math.floor(rand() * 40);
  const a: number[] = [], b: number[] = [];
  for (let p = 0; p < pairs; p++) {
    const scale = 10 ** (Math.floor(rand() * 8) - 4);
    const x = (rand() - 0.5) * scale, y = (rand() - 0.5) * scale;
    a.push(x, y); b.push(y, -x);
  }
  // Shuffle both the same way, so the cancelling terms are summed far apart.
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
    [b[i], b[j]] = [b[j], b[i]];
  }
  return { a, b };
}

test('the dot product of orthogonal vectors reads ≈0 or 0 whatever the rounding left, never a tiny number', () => {
  const rand = seeded(0x0e7);
  let noisy = 0;
  for (let k = 0; k < 3000; k++) {
    const { a, b } = orthogonalPair(rand);
    let total = 0;
    for (let t = 0; t < a.length; t++) total += a[t] * b[t];
    if (total !== 0) noisy++;
    const text = dotTerms(a, b, total);
    const shown = text.slice(text.lastIndexOf(' = ') + 3);
    assert.ok(shown === '0' || shown === '≈0', `case ${k}: ${a.length} terms summed to ${total}, shown "${shown}"`);
  }
  assert.ok(noisy > 100, `the family is not vacuous: ${noisy} sums were not exactly 0`);
});

test('a real value, however small against its terms\' size, is printed as the number it is', () => {
  const rand = seeded(0x4ea1);
  for (let k = 0; k < 3000; k++) {
    const { a, b } = orthogonalPair(rand);
    let size = 0;
    for (let t = 0; t < a.length; t++) size += Math.abs(a[t] * b[t]);
    // The scale a total is judged against: its terms' sizes, or its vectors' largest entries'
    // product, whichever is larger. A term well above its noise makes the sum really not 0.
    const big = (v: number[]) => Math.max(...v.map(Math.abs));
    const scale = Math.max(size, big(a) * big(b));
    const nudge = scale * 10 ** -(3 + Math.floor(rand() * 9)) * (rand() < 0.5 ? -1 : 1);
    b.push(big(b)); a.push(nudge / big(b));
    let total = 0;
    for (let t = 0; t < a.length; t++) total += a[t] * b[t];
    const text = dotTerms(a, b, total);
    assert.notEqual(text.slice(text.lastIndexOf(' = ') + 3), '≈0', `case ${k}: ${total} against a scale of ${scale}`);
  }
});

test('noise is judged against the magnitudes a value came from, not absolutely', () => {
  assert.equal(fmtNear(-8.88e-16, 10, 32), '≈0');
  assert.equal(fmtNear(-1.57e-16, 10 / 5.657, 32), '≈0');
  assert.equal(fmtNear(2.45e-18, 3), '≈0');
  // The same number where it is all there is: a real value.
  assert.equal(fmtNear(-8.88e-16, 1e-15, 1), '-8.88e-16');
  assert.equal(fmtNear(0, 10), '0');
  assert.equal(fmtNear(Number.NaN, 10), 'NaN');
  assert.ok(roundingNoise(1, 10) < 1e-13);
  assert.equal(largestAbs([1, -3, 2, Number.NaN]), 3);
  assert.equal(largestAbs([]), 0);
});
