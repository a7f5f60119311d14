// The grid's ranges and a head's picture cut from the pass a run's forward made
// (src/host/checkpoint-run/kept-pass.ts): each range is what a pass over it gives, as copies; the
// whole run's row counts go with the range from head 0, so the scan's merge of all its ranges
// counts them once; any other list the pass keeps a head at a time is cut to the range too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keptPicture, keptRange } from '../../../../src/host/checkpoint-run/kept-pass.js';
import { PassAccumulator, type PassResult } from '../../../../src/core/tensors/pass.js';
import type { HeadStats } from '../../../../src/core/tensors/head-stats.js';

const total = 6, thumb = 2;

function keptPass(): PassResult {
  const stats = Array.from({ length: total }, (_, k) => ({ layer: Math.floor(k / 3), head: k % 3, entropy: k, confidence: 0, distance: 0, previousToken: null, duplicateToken: null, induction: null, sink: 0 }) as HeadStats);
  return {
    stats, thumbnails: Float32Array.from({ length: total * thumb * thumb }, (_, k) => k),
    pictures: stats.map((_, k) => ({ res: 2, indices: Uint8Array.from([k, k, k, k]), max: k / 10 })),
    offRows: 3, firstOff: 'layer 0 head 1 query 2 sums to 0.9', zeroRows: 1, firstZero: 'layer 1 head 0 query 0', negatives: 2, firstNegative: 'layer 1 head 2 query 3 key 1 (-0.1)',
    // Stand-ins for the maps: keptRange cuts any per-head list without reading it.
    maps: stats.map((_, k) => ({ head: k })) as unknown as PassResult['maps'],
    columnMaxes: stats.map(() => new Float32Array(4)),
  };
}

test('a range is its heads\' statistics, thumbnails, pictures and per-head lists, as copies', () => {
  const pass = keptPass();
  const part = keptRange(pass, total, thumb, 2, 5) as PassResult & { maps?: unknown[] };
  assert.deepEqual(part.stats, pass.stats.slice(2, 5));
  assert.deepEqual([...part.thumbnails], [...pass.thumbnails.subarray(8, 20)]);
  assert.deepEqual(part.pictures!.map((p) => [...p.indices]), [[2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]);
  assert.deepEqual(part.maps, [{ head: 2 }, { head: 3 }, { head: 4 }]);
  assert.equal(part.columnMaxes, undefined, 'the column maxima stay with the run (16 MB at 512 heads of 8,192 tokens)');
  part.thumbnails.fill(-1);
  part.pictures![0].indices.fill(9);
  assert.equal(pass.thumbnails[8], 8);
  assert.equal(pass.pictures![2].indices[0], 2);
  assert.throws(() => keptRange(pass, total, thumb, 4, 7), /heads 4 … 7 are outside the run's 6/);
  assert.throws(() => keptRange(pass, total, thumb, 3, 2), /outside/);
});

test('the scan\'s ranges merged count the run\'s rows off 1, zero rows and negative weights once', () => {
  const pass = keptPass();
  const merged = new PassAccumulator(total, thumb);
  for (const [from, to] of [[0, 2], [2, 4], [4, 6]]) merged.add(from, keptRange(pass, total, thumb, from, to));
  const r = merged.result();
  assert.deepEqual([r.offRows, r.firstOff, r.zeroRows, r.firstZero, r.negatives, r.firstNegative], [3, pass.firstOff, 1, pass.firstZero, 2, pass.firstNegative]);
  assert.deepEqual([...r.thumbnails], [...pass.thumbnails]);
  const later = keptRange(pass, total, thumb, 2, 4);
  assert.deepEqual([later.offRows, later.zeroRows, later.negatives], [0, 0, 0]);
});

test('a head\'s picture is a copy of the kept one; none when the run kept none', () => {
  const pass = keptPass();
  const p = keptPicture(pass, 3, 1, 2)!;
  assert.deepEqual([p.res, [...p.indices], p.max], [2, [5, 5, 5, 5], 0.5]);
  p.indices.fill(0);
  assert.equal(pass.pictures![5].indices[0], 5);
  assert.equal(keptPicture(pass, 3, 1, 3), undefined);
  assert.equal(keptPicture({ ...pass, pictures: undefined }, 3, 0, 0), undefined);
});
