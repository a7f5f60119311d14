import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pca2 } from '../../../../src/core/linalg/pca.js';

const near = (a: number, b: number, d = 1e-6) => assert.ok(Math.abs(a - b) <= d, `${a} ≉ ${b}`);

test('points on a line: one component explains everything', () => {
  const p = pca2([[0, 0, 0], [1, 2, 0], [2, 4, 0], [3, 6, 0]]);
  near(p.explained[0], 1);
  near(p.explained[1], 0);
  near(Math.abs(p.components[0][0]), 1 / Math.sqrt(5));
  near(Math.abs(p.components[0][1]), 2 / Math.sqrt(5));
  near(p.components[0][2], 0);
});

test('the components are orthonormal and sorted by variance', () => {
  const rows = [[3, 0, 0, 0.5], [0, 0, 2, 0], [2, 2, 0, 0], [0.5, 0, 0, 1], [0, 3, 0, 0], [0, 0.5, 0, 0.5]];
  const p = pca2(rows);
  const [a, b] = p.components;
  const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i], 0);
  near(dot(a, a), 1);
  near(dot(b, b), 1);
  near(dot(a, b), 0, 1e-6);
  assert.ok(p.explained[0] >= p.explained[1]);
  assert.ok(p.explained[0] + p.explained[1] <= 1 + 1e-9);
  // Projected coordinates are centred: their mean is 0.
  const xs = rows.map((r) => p.project(r));
  near(xs.reduce((s, q) => s + q[0], 0), 0, 1e-9);
  near(xs.reduce((s, q) => s + q[1], 0), 0, 1e-9);
});

test('axis-aligned spread: the widest axis comes first, with a positive sign', () => {
  const p = pca2([[-5, 1], [5, -1], [0, 0], [-5, -1], [5, 1]]);
  near(p.components[0][0], 1);
  near(p.components[0][1], 0);
  near(Math.abs(p.components[1][1]), 1);
});

test('degenerate inputs do not produce NaN', () => {
  for (const rows of [[[1, 2]], [[1, 2], [1, 2]], [[0]], [[1], [3]]]) {
    const p = pca2(rows);
    for (const v of [...p.components[0], ...p.components[1], ...p.explained, ...p.project(rows[0])]) assert.ok(Number.isFinite(v));
  }
});
