// What the spec views draw of a long input: a window of tokens around the selected one (whole when
// it fits, kept inside the input), and the keys a list shows for one query (the strongest the query
// may see, ties to the earlier, the ones always listed, in reading order), each said in one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listedKeys, listedNote, MAX_DRAWN_TOKENS, MAX_KEY_ROWS, tokenWindow, windowNote, windowRangeText } from '../../../../../webview/views/spec/long-input.js';

test('tokenWindow: the whole input when it fits; else MAX_DRAWN_TOKENS around the token, inside the input', () => {
  assert.deepEqual(tokenWindow(100, 5), { first: 0, count: 100, n: 100 });
  assert.deepEqual(tokenWindow(2048, 2047), { first: 2048 - MAX_DRAWN_TOKENS, count: MAX_DRAWN_TOKENS, n: 2048 });
  assert.deepEqual(tokenWindow(2048, 0), { first: 0, count: MAX_DRAWN_TOKENS, n: 2048 });
  assert.deepEqual(tokenWindow(2048, 1000), { first: 1000 - MAX_DRAWN_TOKENS / 2, count: MAX_DRAWN_TOKENS, n: 2048 });
  assert.deepEqual(tokenWindow(2048, -1), tokenWindow(2048, 2047), 'no token picked: the last');
  assert.equal(windowRangeText(tokenWindow(2048, 2047)), 'tokens 1,793–2,048 of 2,048');
  assert.equal(windowNote(tokenWindow(2048, 2047), 'click'), '2,048 tokens, more than the 256 drawn at once: showing tokens 1,793–2,048 of 2,048 around the selected token; click');
});

test('listedKeys: every key up to the limit; past it the strongest visible ones, ties to the earlier, the always-listed in, reading order', () => {
  assert.deepEqual(listedKeys(3, () => 0, () => false), [0, 1, 2], 'within the limit: every key, masked ones too');
  const w = [0.5, 0.1, 0.1, 0.3, 0, 0.1, 0.9];
  const weight = (j: number) => w[j];
  assert.deepEqual(listedKeys(7, weight, () => true, [], 3), [0, 3, 6]);
  assert.deepEqual(listedKeys(7, weight, () => true, [], 4), [0, 1, 3, 6], 'a tie goes to the earlier key');
  assert.deepEqual(listedKeys(7, weight, (j) => j !== 6, [], 3), [0, 1, 3], 'a masked key never competes');
  assert.deepEqual(listedKeys(7, weight, () => true, [4], 3), [0, 4, 6], 'an always-listed key takes the weakest place');
  assert.deepEqual(listedKeys(7, weight, () => true, [6], 3), [0, 3, 6], 'and takes none when it is among the strongest');
  const n = 2048, big = (j: number) => ((j * 7919) % 2048) / 2048;
  const listed = listedKeys(n, big, () => true, [5]);
  assert.equal(listed.length, MAX_KEY_ROWS);
  assert.ok(listed.includes(5));
  const sorted = Array.from({ length: n }, (_, j) => j).sort((a, b) => big(b) - big(a));
  assert.deepEqual(listed.filter((j) => j !== 5), sorted.slice(0, MAX_KEY_ROWS - 1).sort((a, b) => a - b));
});

test('listedNote says how many of how many, the weight left out, and the masked keys', () => {
  assert.equal(listedNote(2048, 64, 2048, 0.25, '"a"'), '2,048 keys, more than the 64 listed at once: showing the 64 with the largest weights of the 2,048 keys "a" may look at (0.250 of its weight on the others)');
  assert.equal(listedNote(2048, 10, 10, 0, '"a"'), '2,048 keys, more than the 64 listed at once: showing all 10 keys "a" may look at; 2,038 masked (weight 0) left out');
});
