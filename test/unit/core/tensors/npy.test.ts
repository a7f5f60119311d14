// The .npy header (src/core/tensors/npy.ts) is a Python dict literal from the file: read strictly,
// so a crafted header cannot be read one way here and another way by numpy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readNpy } from '../../../../src/core/tensors/npy.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { npyBytes, npyDict } from '../../../support/tensor-files.js';

const npy = npyBytes;
const f64 = Buffer.from(new Float64Array(6).buffer); // 48 bytes: six float64, or twelve float32
const read = (dict: string) => readNpy(memorySource('w.npy', npy(dict, f64)), 'w');

test('headers as numpy writes them (and as a person may) are read', () => {
  assert.deepEqual(read("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }").shape, [3, 2]);
  assert.deepEqual(read("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }").shape, [6]);
  assert.deepEqual(read('{"shape": (2, 3), "fortran_order": False, "descr": "<f8"}').shape, [2, 3]);
  assert.deepEqual(read("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4L), }").shape, [3, 4]);
  assert.deepEqual(read("{'descr': '<f8', 'fortran_order': False, 'shape': (), }").shape, []);
});

test('a key said twice, or a key besides the three, is refused: numpy would read the file otherwise', () => {
  // numpy takes the last 'descr' (a dict literal) and would see 6 float64; the first match saw 12 float32.
  assert.throws(() => read("{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }"), /says 'descr' twice/);
  // A 'shape' inside another value's string came first and was taken for the shape.
  assert.throws(() => read("{'note': \"'shape': (1, 1)\", 'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }"), /w\.npy: the \.npy header/);
  assert.throws(() => read("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), 'extra': (1,), }"), /has a key 'extra' besides descr, fortran_order and shape/);
  assert.throws(() => read("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,), }"), /structured dtype/);
  assert.throws(() => read("{'descr': '<f8', 'fortran_order': False, 'shape': (3,,2), }"), /shape that is not whole numbers/);
  assert.throws(() => read("{'descr': '<f8', 'fortran_order': False, 'shape': (-3, 2), }"), /shape that is not whole numbers/);
  assert.throws(() => read("{'descr': '<f8', 'fortran_order': False}"), /has no shape/);
  assert.throws(() => read("['descr', '<f8']"), /is not a dict/);
});

const numpy = (() => { try { execFileSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }); return true; } catch { return false; } })();
test('numpy refuses the same crafted headers (the rule is numpy\'s own)', { skip: !numpy && 'python3 with numpy is not installed' }, () => {
  const script = `import numpy, io, sys
for h in sys.argv[1:]:
    b = io.BytesIO(b"\\x93NUMPY\\x01\\x00" + len(h.ljust(117) + "\\n").to_bytes(2, "little") + (h.ljust(117) + "\\n").encode("latin1") + bytes(48))
    try:
        numpy.load(b); print("read")
    except ValueError:
        print("refused")`;
  const out = execFileSync('python3', ['-c', script,
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), 'extra': (1,), }",
    "{'note': \"'shape': (1, 1)\", 'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }"], { encoding: 'utf8' });
  assert.deepEqual(out.trim().split('\n'), ['refused', 'refused', 'read']);
});

test('a descr named after an inherited property ("toString", "constructor", …) is a dtype we do not read, never a lookup on the prototype', () => {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    const bytes = npyBytes(npyDict(name, [2, 2]), Buffer.alloc(16));
    assert.throws(() => readNpy(memorySource('x.npy', bytes), 'array'), new RegExp(`x\\.npy: dtype ${name.replace(/[_$]/g, '\\$&')} is not one we read`), name);
  }
});
