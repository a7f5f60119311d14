// A big head's scan in bands (src/host/model-editor/scan.ts): the readers share the bands, the head
// joins the pass once its last band is in, and meanwhile its map fills in band by band (the rows not
// read yet are zero); a reader without bands gets whole heads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanUnits, scanWithReaders } from '../../../../src/host/model-editor/scan.js';
import { bandOverRows, passOverRange, shapeOf } from '../../../../src/core/model-attention/scan.js';
import { inspectAttention } from '../../../../src/core/tensors/inspect.js';
import type { HeadBands } from '../../../../src/core/tensors/band.js';
import { longAttention } from '../../../support/long-head.js';
import { Gate, until } from './stand-ins.js';

test('units: ranges of heads, or each big head\'s bands when the readers read bands', () => {
  assert.deepEqual(scanUnits({ layers: 1, heads: 2, tokens: 300 }, 300 * 300), [{ from: 0, to: 1 }, { from: 1, to: 2 }]);
  assert.deepEqual(scanUnits({ layers: 1, heads: 2, tokens: 300 }, 300 * 100).slice(0, 4), [{ flat: 0, first: 0, rows: 100 }, { flat: 0, first: 100, rows: 100 }, { flat: 0, first: 200, rows: 100 }, { flat: 1, first: 0, rows: 100 }]);
  assert.deepEqual(scanUnits({ layers: 1, heads: 2, tokens: 300 }, 300 * 100, false), [{ from: 0, to: 1 }, { from: 1, to: 2 }]);
  assert.deepEqual(scanUnits({ layers: 1, heads: 4, tokens: 200 }, 100), [{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 2, to: 3 }, { from: 3, to: 4 }], 'heads of 256 tokens or fewer have no map: never banded');
});

test('a one-head file: two readers share its bands, its map fills in band by band, the statistics are inspect\'s', async () => {
  const n = 600;
  const a = longAttention(1, 1, n, 'F16', 37);
  const shape = shapeOf(a);
  const gate = new Gate();
  const asked: number[] = [];
  const reader = () => ({
    pass: async (from: number, to: number) => passOverRange(a, from, to),
    band: async (layer: number, head: number, first: number, rows: number) => { asked.push(first); await gate.hold(); return bandOverRows(a, layer, head, first, rows); },
  });
  const partial = new Map<number, HeadBands>();
  const heard: number[] = [];
  const scan = scanWithReaders([reader(), reader()], shape, {}, (d) => heard.push(d.read), () => false, n * 150, undefined, partial);
  await until('both readers asked for a band', () => gate.waiting === 2);
  assert.deepEqual(asked, [0, 148]);
  gate.release(1);
  await until('the first band is in', () => partial.get(0)?.map !== undefined);
  const map = partial.get(0)!.map!.result();
  const level = map.levels[0];
  const filled = (r: number) => { for (let c = 0; c < level.side; c++) if (level.max[r * level.side + c] > 0) return true; return false; };
  const rowsOfBlocks = 148 / 2 ** level.level;
  assert.ok(filled(1) && filled(rowsOfBlocks - 1), 'the first band\'s block rows (row 0 sees only the sink, left out)');
  assert.ok(!filled(rowsOfBlocks) && !filled(level.side - 1), 'the rest still zero');
  assert.deepEqual(heard, []);
  while (gate.waiting > 0 || heard.length === 0) { gate.release(); await until('a band asked or the head read', () => gate.waiting > 0 || heard.length > 0); }
  const done = await scan;
  assert.deepEqual(heard, [1]);
  assert.equal(partial.size, 0, 'the head is in the pass: its bands are let go');
  assert.deepEqual(done.stats, inspectAttention(a).json.stats);
  assert.deepEqual(done.maps[0].sinks, [0, 37]);
});
