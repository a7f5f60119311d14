"""save() writes the .safetensors the model editor reads, for every form show() takes: the header
parsed here by hand (8-byte size, JSON, 8-byte aligned data), one F32 or F16 tensor per layer, the
tokens in __metadata__, the values as given. (test/unit/python reads the files with our TS reader.)"""
import json
import os
import shutil
import struct
import tempfile
import unittest

import numpy as np

from helpers import attention, tokens
import attention_lens


def read(path):
    with open(path, 'rb') as f:
        raw = f.read()
    size = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    data = raw[8 + size:]
    arrays = {}
    for name, t in header.items():
        if name == '__metadata__':
            continue
        kind = {'F32': '<f4', 'F16': '<f2', 'F64': '<f8'}[t['dtype']]
        b, e = t['data_offsets']
        arrays[name] = np.frombuffer(data[b:e], dtype=kind).reshape(t['shape'])
    return size, header, arrays


class Save(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='attn-')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_layers_and_tokens(self):
        a = attention(3, 2, 5)
        path = os.path.join(self.dir, 'a.safetensors')
        attention_lens.save(path, a, tokens(5))
        size, header, arrays = read(path)
        self.assertEqual(size % 8, 0)
        self.assertEqual(json.loads(header['__metadata__']['tokens']), tokens(5))
        for l in range(3):
            self.assertEqual(header[f'layers.{l}.attention']['dtype'], 'F32')
            np.testing.assert_array_equal(arrays[f'layers.{l}.attention'], a[l])

    def test_every_form(self):
        a = attention(2, 2, 4)
        for form in (a, a[None], tuple(a[l][None] for l in range(2)), [a[0], a[1]]):
            path = os.path.join(self.dir, 'f.safetensors')
            attention_lens.save(path, form, tokens(4))
            _, _, arrays = read(path)
            np.testing.assert_array_equal(np.stack([arrays['layers.0.attention'], arrays['layers.1.attention']]), a)

    def test_float16_kept_float64_narrowed(self):
        path = os.path.join(self.dir, 'h.safetensors')
        attention_lens.save(path, attention(1, 1, 3, dtype=np.float16), tokens(3))
        self.assertEqual(read(path)[1]['layers.0.attention']['dtype'], 'F16')
        attention_lens.save(path, attention(1, 1, 3, dtype=np.float64), tokens(3))
        self.assertEqual(read(path)[1]['layers.0.attention']['dtype'], 'F32')

    def test_refusals(self):
        path = os.path.join(self.dir, 'r.safetensors')
        with self.assertRaisesRegex(ValueError, r'3 tokens for 4 × 4'):
            attention_lens.save(path, attention(1, 1, 4), tokens(3))
        with self.assertRaisesRegex(ValueError, r'a batch of 2'):
            attention_lens.save(path, np.ones((2, 1, 1, 3, 3)), tokens(3))

    def test_refuses_what_the_editor_would_refuse_and_writes_nothing(self):
        # Before: NaN, layers that disagree and 0 tokens were written to files the editor then refused;
        # no layers gave IndexError and dtype='int8' KeyError.
        path = os.path.join(self.dir, 'bad.safetensors')
        nan = attention(1, 1, 3)
        nan[0, 0, 2, 1] = np.nan
        cases = (
            (r'query 2 on key 1 in layer 0 head 0 is nan: attention must be finite', nan, tokens(3), None),
            (r'layer 1 is \[1, 3, 3\] but layer 0 is \[2, 3, 3\]', [np.ones((2, 3, 3)), np.ones((1, 3, 3))], tokens(3), None),
            (r'the attention is empty', np.zeros((1, 2, 0, 0)), [], None),
            (r'the attention is empty', np.zeros((0, 2, 3, 3)), tokens(3), None),
            (r"dtype='int8': save writes float16, float32 or float64", attention(1, 1, 3), tokens(3), 'int8'),
        )
        for pattern, a, toks, dtype in cases:
            with self.assertRaisesRegex(ValueError, pattern):
                attention_lens.save(path, a, toks, dtype=dtype)
            self.assertFalse(os.path.exists(path), pattern)

    def test_float64_kept_when_asked(self):
        path = os.path.join(self.dir, 'd.safetensors')
        a = attention(1, 2, 3, dtype=np.float64)
        attention_lens.save(path, a, tokens(3), dtype='float64')
        _, header, arrays = read(path)
        self.assertEqual(header['layers.0.attention']['dtype'], 'F64')
        np.testing.assert_array_equal(arrays['layers.0.attention'], a[0])


if __name__ == '__main__':
    unittest.main()
