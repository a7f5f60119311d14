// A run's attention as safetensors (src/core/transformer/attention-out.ts): the header names one F32
// tensor [layers, heads, n, n] and the tokens, padded to 8 bytes, and the data is the layers in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionSafetensors } from '../../../../src/core/transformer/attention-out.js';
import { readSafetensors, metadataTokens } from '../../../../src/core/tensors/safetensors.js';
import { memorySource } from '../../../../src/core/tensors/source.js';

test('the parts join into a file the safetensors reader reads back: shape, dtype, tokens, numbers', () => {
  const layers = [Float32Array.from({ length: 2 * 9 }, (_, i) => i / 10), Float32Array.from({ length: 2 * 9 }, (_, i) => -i)];
  const parts = attentionSafetensors(layers, 2, 3, ['a', ' "b"', 'ü']);
  const bytes = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) { bytes.set(p, at); at += p.length; }
  assert.equal(parts[1].length % 8, 0);
  const { tensors, metadata } = readSafetensors(memorySource('run.safetensors', bytes));
  assert.deepEqual(tensors.map((t) => [t.name, t.dtype, t.shape]), [['attention', 'F32', [2, 2, 3, 3]]]);
  assert.deepEqual(metadataTokens('run.safetensors', metadata), ['a', ' "b"', 'ü']);
  const data = new Float32Array(bytes.slice(tensors[0].offset).buffer);
  assert.deepEqual([...data], [...layers[0], ...layers[1]]);
});
