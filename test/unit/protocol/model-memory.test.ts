// The app's requests answered from attention in memory (src/protocol/model-memory.ts): 'ready' gets
// the same header and thumbnails the model editor's scan makes of the same weights in a file; a
// small head whole and exact, a big one as its picture; a window of exact weights; the rollout;
// requests outside the model or of no data are not answered; memoryPost answers a moment later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryModel, memoryPost } from '../../../src/protocol/model-memory.js';
import { readPayload } from '../../../src/protocol/attention-payload.js';
import { scanModel } from '../../../src/core/model-attention/scan.js';
import { memoryAttention } from '../../support/model-fixture.js';
import { randomPayload } from '../../support/payload.js';
import type { ModelHostMessage } from '../../../src/protocol/model-editor.js';

function model(layers: number, heads: number, n: number) {
  const { values, payload } = randomPayload(layers, heads, n, 4);
  const read = readPayload(payload);
  if ('problem' in read) throw new Error(read.problem);
  return { values, model: new MemoryModel(read.attention) };
}

test('ready: the header and thumbnails the file\'s scan makes; a head whole; a window; the rollout', () => {
  const { values, model: m } = model(2, 3, 6);
  const want = scanModel(memoryAttention(values, 2, 3, 6, ['t0', 't1', 't2', 't3', 't4', 't5']));
  const ready = m.answer({ type: 'ready' }) as Extract<ModelHostMessage, { type: 'model' }>;
  assert.equal(ready.type, 'model');
  assert.deepEqual(ready.header.stats, want.header.stats);
  assert.deepEqual(ready.header.tokenTexts, want.header.tokenTexts);
  assert.deepEqual(Array.from(ready.thumbnails), Array.from(want.thumbnails));
  const head = m.answer({ type: 'head', layer: 1, head: 2 }) as Extract<ModelHostMessage, { type: 'head' }>;
  assert.deepEqual(Array.from(head.weights!), Array.from(values.subarray(5 * 36, 6 * 36)));
  const win = m.answer({ type: 'window', layer: 0, head: 1, i0: 2, rows: 2, j0: 3, cols: 3 }) as Extract<ModelHostMessage, { type: 'window' }>;
  assert.equal(win.weights.length, 6);
  assert.equal(win.weights[0], values[36 + 2 * 6 + 3]);
  const rollout = m.answer({ type: 'rollout' }) as Extract<ModelHostMessage, { type: 'rollout' }>;
  assert.equal(rollout.rollout?.length, 36);
});

test('a head past 256 tokens comes as its picture, as the editor sends it', () => {
  const { model: m } = model(1, 1, 300);
  const head = m.answer({ type: 'head', layer: 0, head: 0 }) as Extract<ModelHostMessage, { type: 'head' }>;
  assert.equal(head.weights, undefined);
  assert.equal(head.picture?.res, 300);
  assert.ok((head.max ?? 0) > 0);
});

test('a request outside the model, a malformed one or one of no data is not answered', () => {
  const { model: m } = model(1, 2, 4);
  assert.equal(m.answer({ type: 'head', layer: 1, head: 0 }), undefined);
  assert.equal(m.answer({ type: 'window', layer: 0, head: 0, i0: 3, rows: 2, j0: 0, cols: 1 }), undefined);
  assert.equal(m.answer({ type: 'softmax' }), undefined);
  assert.equal(m.answer('ready'), undefined);
});

test('memoryPost answers a moment later and hands on what the data does not answer', async () => {
  const { model: m } = model(1, 1, 3);
  const got: string[] = [], other: string[] = [];
  const post = memoryPost(m, (r) => got.push(r.type), (r) => other.push(r.type));
  post({ type: 'ready' });
  post({ type: 'painted', view: 'model', items: 1, drawMs: 1 });
  assert.deepEqual(got, [], 'not within the call');
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got, ['model']);
  assert.deepEqual(other, ['painted']);
});
