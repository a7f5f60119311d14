// scripts/save_attention.py from the shell, on the inputs the attack found it wrong on: layers stored
// out of order are put in order by the number their names end in; a batch of 2 is refused, not cut
// to its first; an empty .npz, a string for tokens and an input named as the output are refused in
// one line; an [n, n] array is one head; float16 stays float16. Each file written is read back by
// our reader and compared with numpy's arrays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAttention } from '../../../src/core/files/open.js';
import { ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/temp-dir.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const skip = python ? false : 'numpy is not installed (CI installs python3-numpy)';
const SCRIPT = join(ROOT, 'scripts', 'save_attention.py');

function py(dir: string, code: string): void {
  const r = spawnSync(python!, ['-c', `import numpy as np, json\nnp.random.seed(0)\n${code}`], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}
const save = (dir: string, ...args: string[]) => spawnSync(python!, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' });

test('save_attention.py: layers in order, batches, empty, [n, n], float16, strings, and never over its input', { skip }, () => {
  const dir = tempDir('attn-save-');
  py(dir, `a = np.random.rand(3, 2, 4, 4); a /= a.sum(-1, keepdims=True); a = a.astype(np.float32); np.save('a.npy', a)
np.savez('ooo.npz', **{'layers.10': a[2], 'layers.2': a[1], 'layers.0': a[0]})
np.save('batch2.npy', np.stack([a, a])); np.savez('empty.npz'); np.save('nn.npy', a[0, 0]); np.save('half.npy', a.astype(np.float16))
json.dump('abcd', open('string.json', 'w'))`);
  const ordered = save(dir, 'ooo.safetensors', 'ooo.npz');
  assert.equal(ordered.status, 0, ordered.stderr);
  const want = openAttention(join(dir, 'a.npy')), got = openAttention(join(dir, 'ooo.safetensors'));
  assert.equal(got.layers, 3);
  for (let l = 0; l < 3; l++) assert.deepEqual(Array.from(got.head(l, 1)), Array.from(want.head(l, 1)), `layer ${l} is the array named layers.${[0, 2, 10][l]}`);
  const batch = save(dir, 'b.safetensors', 'batch2.npy');
  assert.equal(batch.status, 1);
  assert.match(batch.stderr, /^save_attention: a batch of 2 sequences; pass one \(batch 1\)\n$/);
  const empty = save(dir, 'e.safetensors', 'empty.npz');
  assert.equal(empty.status, 1);
  assert.match(empty.stderr, /^save_attention: empty\.npz: holds no arrays\n$/);
  assert.equal(save(dir, 'nn.safetensors', 'nn.npy').status, 0, 'an [n, n] array is one layer of one head');
  assert.deepEqual([openAttention(join(dir, 'nn.safetensors')).layers, openAttention(join(dir, 'nn.safetensors')).heads], [1, 1]);
  assert.equal(save(dir, 'half.safetensors', 'half.npy').status, 0);
  assert.equal(openAttention(join(dir, 'half.safetensors')).dtype, 'F16', 'float16 is kept, not widened');
  const text = save(dir, 't.safetensors', 'nn.npy', 'string.json');
  assert.equal(text.status, 1);
  assert.match(text.stderr, /string\.json: must be a JSON list of strings/);
  const before = readFileSync(join(dir, 'half.npy'));
  const over = save(dir, 'half.npy', 'half.npy');
  assert.equal(over.status, 2);
  assert.match(over.stderr, /half\.npy is half\.npy, an input; name another file/);
  assert.deepEqual(readFileSync(join(dir, 'half.npy')), before, 'the input is unchanged');
  for (const r of [batch, empty, text, over]) assert.doesNotMatch(r.stderr, /Traceback/);
});
