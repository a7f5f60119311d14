// A step through a run's generation shows its first m positions (src/host/checkpoint-run/prefix-attention.ts):
// every head's top-left m × m, exactly, with the first m tokens; any source's (a run keeping q and k)
// cut from the rows it gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prefixAttention, prefixRows } from '../../../../src/host/checkpoint-run/prefix-attention.js';
import { layersAttention } from '../../../../src/core/tensors/attention-source.js';

const heads = 2, n = 5;
const layer = (seed: number) => Float32Array.from({ length: heads * n * n }, (_, k) => seed * 1000 + k);

test('a prefix of m tokens is each head\'s top-left m × m and the first m tokens', () => {
  const attention = [layer(1), layer(2)];
  const tokens = ['a', 'b', 'c', 'd', 'e'];
  const p = prefixAttention('the run', attention, heads, n, 3, tokens);
  assert.deepEqual([p.layers, p.heads, p.n], [2, heads, 3]);
  assert.deepEqual(p.tokens, ['a', 'b', 'c']);
  const w = p.head(1, 1);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(w[i * 3 + j], attention[1][n * n + i * n + j]);
  // Rows as bytes: the second row of layer 1 head 2's cut.
  const row = new Float32Array(p.rowBytes(0, 1, 1, 1).slice().buffer);
  assert.deepEqual([...row], [...attention[0].subarray(n * n + n, n * n + n + 3)]);
});

test('the whole run is the run itself; a step outside 1 … n is refused in a sentence', () => {
  const attention = [layer(1)];
  assert.equal(prefixAttention('the run', attention, heads, n, n).n, n);
  assert.throws(() => prefixAttention('the run', attention, heads, n, 0), /a step of 0 tokens is outside the run's 1 … 5/);
  assert.throws(() => prefixAttention('the run', attention, heads, n, 6), /outside/);
  assert.throws(() => prefixAttention('the run', attention, heads, n, 2.5), /outside/);
});

test('any source\'s first m positions are its rows cut to m keys, as the prefix of its arrays is; closing the cut leaves the source open', () => {
  const attention = [layer(1), layer(2)];
  const tokens = ['a', 'b', 'c', 'd', 'e'];
  let closed = false;
  const source = { ...layersAttention('the run', attention, heads, n, tokens), close: () => { closed = true; } };
  const cut = prefixRows(source, 3), arrays = prefixAttention('the run', attention, heads, n, 3, tokens);
  assert.deepEqual([cut.layers, cut.heads, cut.n, cut.tokens], [2, heads, 3, ['a', 'b', 'c']]);
  for (let l = 0; l < 2; l++) for (let h = 0; h < heads; h++) {
    assert.deepEqual(cut.head(l, h), arrays.head(l, h));
    assert.deepEqual(cut.rowBytes(l, h, 1, 2), arrays.rowBytes(l, h, 1, 2));
  }
  assert.throws(() => cut.rowBytes(0, 0, 2, 2), /outside the 3 queries/);
  assert.throws(() => prefixRows(source, 6), /a step of 6 tokens is outside the run's 1 … 5/);
  assert.equal(prefixRows(source, 5).rowBytes(1, 1, 0, 5).length, 5 * 5 * 4);
  cut.close();
  assert.equal(closed, false);
});
