// A big head as a map in the model editor (answer.ts, scan.ts, the reader's 'band' and 'tile'): the
// scan shares each big head out in bands of rows among the workers and its statistics are inspect's
// to the bit; the head comes with its map; a tile at a level the scan's pyramid keeps is cut from it
// (nothing read), a deeper one is read by the worker from the file; a tile request that fails its
// check is ignored with a warning and reads nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelReader } from '../../../../src/host/model-editor/reader.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ModelView } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { inspectAttention } from '../../../../src/core/tensors/inspect.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';
import { headMapOf, sinksOf, tileFromSource } from '../../../../src/core/model-attention/tiles.js';
import { pyramidBase } from '../../../../src/core/tensors/map/pyramid.js';
import { headBands } from '../../../../src/core/tensors/band.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { writeLongFile } from '../../../support/long-head.js';
import { CountingReader, LogStandIn, until, WebviewStandIn } from './stand-ins.js';

const workers = new WorkerService({ scan: { file: join(ROOT, 'dist', 'scan-worker.js') } });

test('a file of big heads: bands shared by two workers, inspect\'s statistics, each head\'s map, tiles cut from the pyramid or read by the worker', async () => {
  const dir = tempDir('attn-tiles-');
  const path = join(dir, 'long.safetensors');
  // Four heads of 2,600 tokens: their pyramids fit the budget from level 1 (level 0 is read from the file).
  const n = 2600;
  assert.equal(pyramidBase(4, n), 1);
  writeLongFile(path, 1, 4, n, 'F16', 37);
  const local = openAttention(path);
  const readers: CountingReader[] = [];
  const log = new LogStandIn();
  const document = new ModelDocument({
    uri: 'file:///long', path, log, helperCount: () => 1, weightsPerRange: 2 ** 20,
    newReader: () => { const r = new CountingReader(new ModelReader(workers)); readers.push(r); return r; },
  });
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log, postEveryMs: 0 });
  try {
    await receive(view, { type: 'ready' });
    await until('every head read and posted', () => view.info().scanMs !== undefined && webview.read === 4, 60_000);
    assert.deepEqual(webview.problems, []);
    const asked = readers.flatMap((r) => r.asked);
    assert.equal(asked.filter((q) => q.op === 'pass').length, 0, 'no head read whole');
    const bands = asked.filter((q) => q.op === 'band');
    assert.deepEqual(headBands(n, 2 ** 20)[0], [0, 400], 'whole block rows of the coarsest level (16 queries)');
    assert.equal(bands.length, 4 * headBands(n, 2 ** 20).length, 'every band of every head once');
    assert.ok(readers.length === 2 && readers.every((r) => r.asked.some((q) => q.op === 'band')), 'both workers read bands');
    assert.deepEqual(webview.header!.stats, inspectAttention(local).json.stats, 'the statistics, to the bit');

    await receive(view, { type: 'head', layer: 0, head: 2 });
    const [head] = webview.of('head');
    const whole = passOverHeads(local, { from: 2, to: 3, map: {} }).maps![0];
    assert.deepEqual(head.map, headMapOf(n, whole));
    assert.deepEqual(head.map!.sinks, [0, 37]);
    assert.equal(head.map!.levels, 5);

    const sinks = sinksOf(local, 0, 2);
    const tileAsked = () => readers[0].asked.filter((q) => q.op === 'tile').length;
    const plain = (t: { max: Float32Array; sum: Float32Array; sinkColumns?: { key: number; max: Float32Array; sum: Float32Array }[] }) => [Array.from(t.max), Array.from(t.sum), t.sinkColumns?.map((c) => [c.key, Array.from(c.max), Array.from(c.sum)])];
    await receive(view, { type: 'tile', layer: 0, head: 2, level: 2, i0: 500, j0: 10, rows: 256, cols: 200 });
    const [cut] = webview.of('tile');
    assert.deepEqual({ level: cut.level, i0: cut.i0, j0: cut.j0, rows: cut.rows, cols: cut.cols }, { level: 2, i0: 500, j0: 10, rows: 150, cols: 200 });
    assert.deepEqual(plain(cut), plain(tileFromSource(local, 0, 2, 2, 500, 10, 256, 200, sinks)));
    assert.equal(tileAsked(), 0, 'level 2 is in the pyramid: nothing read');
    await receive(view, { type: 'tile', layer: 0, head: 2, level: 0, i0: 2500, j0: 30, rows: 256, cols: 256 });
    const deep = webview.of('tile')[1];
    assert.deepEqual(plain(deep), plain(tileFromSource(local, 0, 2, 0, 2500, 30, 256, 256, sinks)));
    assert.equal(deep.rows, 100);
    assert.equal(tileAsked(), 1, 'level 0 is read by the worker');

    const before = webview.messages.length;
    for (const bad of [
      { level: 5, i0: 0, j0: 0, rows: 1, cols: 1 }, { level: -1, i0: 0, j0: 0, rows: 1, cols: 1 }, { level: 0.5, i0: 0, j0: 0, rows: 1, cols: 1 },
      { level: 0, i0: -1, j0: 0, rows: 1, cols: 1 }, { level: 0, i0: 0, j0: 1.5, rows: 1, cols: 1 }, { level: 0, i0: 0, j0: 0, rows: 257, cols: 256 },
      { level: 4, i0: 163, j0: 0, rows: 1, cols: 1 }, { level: 0, i0: 0, j0: 0, rows: 0, cols: 4 },
    ]) await receive(view, { type: 'tile', layer: 0, head: 2, ...bad });
    await receive(view, { type: 'tile', layer: 0, head: 4, level: 0, i0: 0, j0: 0, rows: 1, cols: 1 });
    assert.equal(webview.messages.length, before, 'nothing answered');
    assert.equal(log.warnings.filter((w) => /ignored a message from the webview/.test(w)).length, 9);
    assert.equal(tileAsked(), 1, 'nothing read');
  } finally {
    view.dispose();
    document.dispose();
    local.close();
  }
});

test('the worker answers \'tile\' and \'band\' from the open file (and refuses a tile outside the head)', async () => {
  const dir = tempDir('attn-tiles-');
  const path = join(dir, 'one.safetensors');
  const n = 700;
  writeLongFile(path, 1, 1, n, 'F32');
  const local = openAttention(path);
  const reader = new ModelReader(workers);
  try {
    await reader.open(path);
    const tile = await reader.tile(0, 0, 1, 100, 0, 64, 350, {});
    const expected = tileFromSource(local, 0, 0, 1, 100, 0, 64, 350, sinksOf(local, 0, 0));
    assert.deepEqual([Array.from(tile.max), Array.from(tile.sum)], [Array.from(expected.max), Array.from(expected.sum)]);
    await assert.rejects(reader.tile(0, 0, 3, 0, 0, 1, 1, {}), /level 3/);
    const band = await reader.band(0, 0, 0, 256, {});
    assert.equal(band.terms.length, 256 * 7);
    assert.deepEqual(band.map!.sinks, [0]);
  } finally {
    reader.dispose();
    local.close();
  }
});
