// A run that keeps q and k opens its big heads as maps, as a file does (run-answers.ts 'map' and
// 'tile', client.ts's reader, the model editor's answers): on a tiny grouped-query RoPE model of 300
// tokens (past WHOLE_HEAD_MAX), every head's map (sinks, the two colour scales) equals the one the
// dense run's pyramid gives, and its tiles the dense head's to 1e-6 relative with the same sink
// columns; a run without a map for a head (a dense one, a step, the softmax asked) answers none; a
// tile outside the head is refused in a sentence. Then the real path: the run's worker, its client
// and the model editor's view post the head with its map and its tiles, which the webview's checks pass.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunAnswers } from '../../../../src/host/checkpoint-run/run-answers.js';
import { RunClient } from '../../../../src/host/checkpoint-run/client.js';
import { realEngine } from '../../../../src/host/checkpoint-run/engine.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelView } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import { layersAttention, type AttentionSource } from '../../../../src/core/tensors/attention-source.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';
import { headMapOf, sinksOf, tileFromSource, type HeadMap, type HeadTile } from '../../../../src/core/model-attention/tiles.js';
import { qkRunOf } from '../../../../src/core/model-attention/qk-source.js';
import type { Engine } from '../../../../src/host/checkpoint-run/engine.js';
import type { RunRequest, RunResponse } from '../../../../src/protocol/checkpoint-run.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';
import { QWEN2_CONFIG, tinyCheckpoint, writeCheckpoint } from '../../../support/tiny-checkpoint.js';
import { ROOT } from '../../../support/paths.js';
import { LogStandIn, until, WebviewStandIn } from '../model-editor/stand-ins.js';

const root = mkdtempSync(join(tmpdir(), 'attn-run-map-'));
after(() => rmSync(root, { recursive: true, force: true }));

const folder = (() => {
  const dir = join(root, 'tiny-qwen');
  writeTinyGpt2(dir);
  const { configText, tensors } = tinyCheckpoint({ ...QWEN2_CONFIG, vocab_size: 261, max_position_embeddings: 1024 }, 3);
  return writeCheckpoint(dir, configText, tensors);
})();
const N = 300, LAYERS = 2, HEADS = 4;
const TEXT = Array.from({ length: N }, (_, i) => 'abcdefghij'[(i * 7) % 10]).join('');

/** The same text's dense run, as a file of its heads. */
function denseRun(): AttentionSource {
  const { attention } = realEngine(undefined, { attention: 'dense' }).run(folder, TEXT);
  return layersAttention('the run', attention, HEADS, N);
}

type Ok = Extract<RunResponse, { ok: true }> & Record<string, unknown>;
type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

function answerOf(answers: RunAnswers, r: Without<RunRequest>): RunResponse {
  return answers.answer({ id: 1, ...r } as RunRequest).response;
}
function ok(answers: RunAnswers, r: Without<RunRequest>): Ok {
  const response = answerOf(answers, r);
  assert.ok(response.ok, JSON.stringify(response));
  return response as Ok;
}

function close(got: Float32Array, want: Float32Array, what: string): void {
  assert.equal(got.length, want.length, what);
  for (let k = 0; k < want.length; k++) {
    const d = Math.abs(got[k] - want[k]);
    if (d > 1e-6 * Math.abs(want[k]) && d > 1e-30) assert.fail(`${what}: cell ${k} is ${got[k]}, the dense head's ${want[k]}`);
  }
}

function sameTile(got: HeadTile, want: HeadTile, what: string): void {
  assert.deepEqual([got.level, got.i0, got.j0, got.rows, got.cols], [want.level, want.i0, want.j0, want.rows, want.cols], what);
  close(got.max, want.max, `${what} max`);
  close(got.sum, want.sum, `${what} sum`);
  assert.deepEqual((got.sinkColumns ?? []).map((c) => c.key), (want.sinkColumns ?? []).map((c) => c.key), `${what} sink keys`);
  (want.sinkColumns ?? []).forEach((c, s) => { close(got.sinkColumns![s].max, c.max, `${what} sink max`); close(got.sinkColumns![s].sum, c.sum, `${what} sink sum`); });
}

const TILES = [[1, 0, 0, 256, 256], [0, 0, 0, 256, 256], [0, 200, 40, 256, 100], [1, 149, 149, 1, 1]];

test('a run that keeps q and k answers each big head\'s map and tiles as the dense run\'s pyramid gives them', () => {
  const want = denseRun();
  const qk = new RunAnswers(realEngine(undefined, { attention: 'qk' }));
  const dense = new RunAnswers(realEngine(undefined, { attention: 'dense' }));
  try {
    ok(qk, { op: 'run', folder, text: TEXT });
    ok(dense, { op: 'run', folder, text: TEXT });
    const pyramid = passOverHeads(want, { map: {} }).maps!;
    for (let layer = 0; layer < LAYERS; layer++) {
      for (let head = 0; head < HEADS; head++) {
        assert.deepEqual(ok(qk, { op: 'map', layer, head, options: {} }).map, headMapOf(N, pyramid[layer * HEADS + head]), `layer ${layer} head ${head}: the map`);
        assert.equal(ok(dense, { op: 'map', layer, head, options: {} }).map, null, 'a dense run: its scan\'s pyramid makes the map');
      }
    }
    for (const [layer, head] of [[0, 0], [1, 3]]) {
      const sinks = sinksOf(want, layer, head);
      for (const [level, i0, j0, rows, cols] of TILES) {
        const tile = ok(qk, { op: 'tile', layer, head, level, i0, j0, rows, cols, options: {} }).tile as HeadTile;
        sameTile(tile, tileFromSource(want, layer, head, level, i0, j0, rows, cols, sinks), `layer ${layer} head ${head} level ${level} at ${i0}, ${j0}`);
      }
    }
    const bare = ok(qk, { op: 'tile', layer: 1, head: 1, level: 0, i0: 0, j0: 0, rows: 8, cols: 8, options: {}, sinks: false }).tile as HeadTile;
    assert.equal(bare.sinkColumns, undefined, 'without its sink columns when asked so');
    // No map where the forward's column maxima are not the head's: the softmax asked, a step of the run.
    assert.equal(ok(qk, { op: 'map', layer: 0, head: 0, options: { softmax: true } }).map, null);
    ok(qk, { op: 'step', tokens: 280 });
    assert.equal(ok(qk, { op: 'map', layer: 0, head: 0, options: {} }).map, null);
    ok(qk, { op: 'step', tokens: N });
    assert.deepEqual(ok(qk, { op: 'map', layer: 0, head: 0, options: {} }).map, headMapOf(N, pyramid[0]));
    // Requests outside the head: one sentence each, never a stack.
    const error = (r: Without<RunRequest>) => { const a = answerOf(qk, r); assert.equal(a.ok, false); return (a as { error: string }).error; };
    assert.equal(error({ op: 'tile', layer: 0, head: 0, level: 2, i0: 0, j0: 0, rows: 1, cols: 1, options: {} }), 'a tile at level 2, not a whole number below 2');
    assert.equal(error({ op: 'tile', layer: 0, head: 0, level: 0, i0: 0, j0: 0, rows: 300, cols: 300, options: {} }), 'a tile of 300 × 300 blocks, over the 65536 of one request');
    assert.match(error({ op: 'tile', layer: 2, head: 0, level: 0, i0: 0, j0: 0, rows: 1, cols: 1, options: {} }), /layer 2/);
    assert.match(error({ op: 'map', layer: 0, head: 4, options: {} }), /head 4/);
  } finally {
    qk.close();
    dense.close();
  }
});

test('a tile asked again is the one the run kept (nothing computed again), each answer a copy of it', () => {
  const real = realEngine(undefined, { attention: 'qk' });
  let reads = 0;
  const engine: Engine = {
    ...real,
    run(...args) {
      const run = real.run(...args);
      const store = qkRunOf(run.qk!.source)!.store as { read: (...a: never[]) => Float32Array };
      const read = store.read.bind(store);
      store.read = (...a: never[]) => { reads++; return read(...a); };
      return run;
    },
  };
  const qk = new RunAnswers(engine);
  try {
    ok(qk, { op: 'run', folder, text: TEXT });
    const ask = () => ok(qk, { op: 'tile', layer: 1, head: 0, level: 1, i0: 0, j0: 0, rows: 256, cols: 256, options: {} }).tile as HeadTile;
    const first = ask();
    const computed = reads;
    assert.ok(computed > 0, 'the first is computed from q and k');
    first.max.fill(-1);
    first.sinkColumns![0].max.fill(-1);
    const again = ask();
    assert.equal(reads, computed, 'asked again: nothing read of q and k');
    assert.ok(again.max.every((w) => w >= 0) && again.sinkColumns![0].max.every((w) => w >= 0), 'the kept tile is not the one posted away');
    sameTile(again, tileFromSource(denseRun(), 1, 0, 1, 0, 0, 256, 256, sinksOf(denseRun(), 1, 0)), 'the kept tile');
    // Nine other tiles later the first is let go: computed again.
    for (let i0 = 0; i0 < 9; i0++) ok(qk, { op: 'tile', layer: 0, head: 0, level: 0, i0: i0 * 8, j0: 0, rows: 8, cols: 8, options: {} });
    const before = reads;
    ask();
    assert.ok(reads > before, 'the oldest of more than eight tiles is let go');
  } finally {
    qk.close();
  }
});

test('in the model editor, a run\'s big head comes with its map and its tiles from the run\'s worker', async () => {
  const want = denseRun();
  const client = new RunClient(new WorkerService({ run: { file: join(ROOT, 'test', 'support', 'qk-run-worker.ts'), execArgv: ['--require', 'tsx/cjs'] } }));
  const log = new LogStandIn();
  const document = new ModelDocument({ uri: 'file:///run.attn.json', path: '/run.attn.json', newReader: () => client.reader(), helperCount: () => 0, log });
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log, postEveryMs: 0 });
  try {
    const report = await client.run(folder, TEXT);
    assert.ok(report.wholeHeads, 'the run kept q and k');
    await receive(view, { type: 'ready' });
    await until('every head posted', () => view.info().scanMs !== undefined && webview.read === LAYERS * HEADS, 60_000);
    await receive(view, { type: 'head', layer: 1, head: 2 });
    const [head] = webview.of('head');
    assert.deepEqual(head.map as HeadMap, headMapOf(N, passOverHeads(want, { from: 6, to: 7, map: {} }).maps![0]));
    const sinks = sinksOf(want, 1, 2);
    for (const [level, i0, j0, rows, cols] of TILES) await receive(view, { type: 'tile', layer: 1, head: 2, level, i0, j0, rows, cols });
    const tiles = webview.of('tile');
    assert.equal(tiles.length, TILES.length);
    tiles.forEach((t, k) => {
      const [level, i0, j0, rows, cols] = TILES[k];
      sameTile(t, tileFromSource(want, 1, 2, level, i0, j0, rows, cols, sinks), `tile ${k}`);
    });
    assert.deepEqual(webview.problems, [], 'the webview\'s checks pass every message');
    assert.deepEqual(log.errors, []);
  } finally {
    view.dispose();
    document.dispose();
    client.dispose();
  }
});
