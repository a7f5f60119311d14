// Plain-text tables of `attn compute` (src/cli/table.ts): numbers rounded to 4 decimals without
// trailing zeros, whole numbers as they are, masked entries named; columns right-aligned under their
// labels, row labels padded, no trailing spaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber, table } from '../../../src/cli/table.js';

test('formatNumber: whole numbers as they are, others to 4 decimals with no trailing zeros, masked for null and -Infinity', () => {
  assert.equal(formatNumber(136), '136');
  assert.equal(formatNumber(-3), '-3');
  assert.equal(formatNumber(0), '0');
  assert.equal(formatNumber(0.123456), '0.1235');
  assert.equal(formatNumber(1.1), '1.1');
  assert.equal(formatNumber(2.50001), '2.5');
  assert.equal(formatNumber(-0.00004), '0');
  assert.equal(formatNumber(1 / 3, 2), '0.33');
  assert.equal(formatNumber(null), 'masked');
  assert.equal(formatNumber(-Infinity), 'masked');
  assert.equal(formatNumber(Infinity), 'Infinity');
});

test('a table: the title, the column labels, then one labelled row each, right-aligned', () => {
  const t = table('scores (Q·Kᵀ)', ['apple', 'watch'], ['apple', 'w'], [[136, 64], [0.5, null]]);
  assert.equal(t, [
    'scores (Q·Kᵀ)',
    '         apple       w',
    '  apple    136      64',
    '  watch    0.5  masked',
  ].join('\n'));
});

test('no line ends in spaces, even with empty labels', () => {
  const t = table('t', ['', 'long row label'], ['', 'c'], [[1, 2], [3, 4]]);
  for (const line of t.split('\n')) assert.equal(line, line.trimEnd());
  // Two spaces, the 14-character label column, two spaces, then the values.
  assert.equal(t.split('\n')[2], `${' '.repeat(18)}1  2`);
});
