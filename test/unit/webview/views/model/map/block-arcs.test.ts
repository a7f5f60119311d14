// The map's arcs above single cells: groups of whole blocks (no more query groups than ARCS_MAX),
// each one's strongest links to the key groups in view by the strongest weight of their blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockLinksInView, groupSize } from '../../../../../../webview/views/model/map/block-arcs.js';
import { ARCS_MAX } from '../../../../../../webview/views/model/map/arcs.js';
import { mapOf, needleHead, tileOf } from '../../../../../support/head-map.js';

test('groups hold whole blocks and leave at most ARCS_MAX query groups in view', () => {
  assert.equal(groupSize(1, 0, 2047), 32, '64 groups of 32; 16 would leave 128');
  assert.equal(groupSize(3, 0, 511), 8, '64 blocks of 8 are few enough');
  assert.equal(groupSize(0, 100, 195), 1);
  for (const [level, i0, i1] of [[1, 0, 2047], [2, 300, 4000], [5, 0, 32767]]) {
    const g = groupSize(level, i0, i1);
    assert.ok(g % 2 ** level === 0 && Math.floor(i1 / g) - Math.floor(i0 / g) + 1 <= ARCS_MAX);
  }
});

test('each query group links to its k strongest key groups by the strongest weight of their blocks', () => {
  const n = 1024, w = needleHead(n), map = mapOf(w, n);
  const tile = tileOf(w, map, { level: 2, i0: 0, j0: 0, rows: 256, cols: 256 });
  const arcs = blockLinksInView([tile], 2, 0, n - 1, 0, n - 1, 2);
  assert.equal(arcs.group, 16);
  assert.equal(arcs.read, arcs.groups);
  // The dense answer: each group pair's strongest weight outside the sink key.
  const best = (gi: number, gj: number) => {
    let m = 0;
    for (let i = gi * 16; i < gi * 16 + 16; i++) for (let j = Math.max(1, gj * 16); j < gj * 16 + 16; j++) m = Math.max(m, w[i * n + j]);
    return m;
  };
  const byGroup = new Map<number, number[]>();
  for (const [i, j, v] of arcs.links) {
    assert.equal(i % 16, 0);
    assert.ok(Math.abs(v - best(i / 16, j / 16)) < 1e-7);
    byGroup.set(i / 16, [...(byGroup.get(i / 16) ?? []), v]);
  }
  assert.equal(byGroup.size, 64);
  for (const [gi, got] of byGroup) {
    const want = Array.from({ length: 64 }, (_, gj) => best(gi, gj)).filter((v) => v > 0).sort((a, b) => b - a).slice(0, 2);
    assert.deepEqual(got.sort((a, b) => b - a).map((v) => v.toFixed(6)), want.map((v) => v.toFixed(6)), `group ${gi}`);
  }
  // Nothing kept at the level: nothing read, nothing drawn.
  const none = blockLinksInView([tileOf(w, map, { level: 3, i0: 0, j0: 0, rows: 128, cols: 128 })], 2, 0, n - 1, 0, n - 1, 2);
  assert.equal(none.links.length, 0);
  assert.equal(none.read, 0);
});

test('a region kept but all zero (above a causal diagonal) is read: no links, and nothing left to read', () => {
  const level = 2, rows = 256, cols = 256;
  const zeros = { level, i0: 0, j0: 256, rows, cols, max: new Float32Array(rows * cols), sum: new Float32Array(rows * cols) };
  // Queries 0…1023 × keys 1024…2047: every block of it in the tile kept, every one 0.
  const all = blockLinksInView([zeros], level, 0, 1023, 1024, 2047, 3);
  assert.equal(all.links.length, 0);
  assert.ok(all.groups > 0);
  assert.equal(all.read, all.groups);
  // Half the keys in view kept (the tile at their right not yet come): no group is read.
  const half = blockLinksInView([zeros], level, 0, 1023, 1024, 3071, 3);
  assert.equal(half.read, 0);
  // Half the queries' blocks kept: those groups alone are read.
  const top = { ...zeros, i0: 0, rows: 128, max: new Float32Array(128 * cols), sum: new Float32Array(128 * cols) };
  const part = blockLinksInView([top], level, 0, 1023, 1024, 2047, 3);
  assert.equal(part.read, part.groups / 2);
});
