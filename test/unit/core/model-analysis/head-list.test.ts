import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHeads } from '../../../../src/core/model-analysis/head-list.js';

test('heads are read as L.H counting from 1, and echoed as written', () => {
  assert.deepEqual(parseHeads('2.1, 1.3', 2, 4), { heads: [{ layer: 1, head: 0 }, { layer: 0, head: 2 }], labels: ['2.1', ' 1.3'] });
});

test('a head outside the model, or not written L.H, is named in the sentence that refuses it', () => {
  const error = (text: string) => { const r = parseHeads(text, 2, 4); return 'error' in r ? r.error : ''; };
  assert.match(error('0.1'), /layer 0 is not one of the model's layers 1 to 2/);
  assert.match(error('3.1'), /layer 3/);
  assert.match(error('1.5'), /head 5 is not one of each layer's heads 1 to 4/);
  assert.match(error('1'), /"1" is not a head: write L.H/);
  assert.match(error('1.1,,'), /"" is not a head/);
  assert.match(error(Array(9).fill('1.1').join(',')), /9 heads named, more than the model's 8/);
});

test('a head named twice, however written, is refused naming both spellings', () => {
  const r = parseHeads('2.1, 1.3, 02.1', 2, 4);
  assert.ok('error' in r);
  assert.equal(r.error, '02.1 names head 2.1 again (2.1): name each head once');
});
