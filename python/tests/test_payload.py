"""The payload's dtype and size rule: float32 and float64 input → float32; float16 input stays float16;
past MAX_PAYLOAD_BYTES (32 MiB) of float32 every head in float16; past it in float16 too (or out of
float16's range) the chosen head alone at full precision (layer=/head=, else the most focused head);
base64 of the little-endian bytes round-trips exactly."""
import base64
import unittest

import numpy as np

from helpers import attention, decoded, tokens
import attention_lens
from attention_lens import MIME, payload as payload_module


def bundle(a, toks, **kw):
    return attention_lens.show(a, toks, **kw)._repr_mimebundle_()


class Limit:
    """MAX_PAYLOAD_BYTES lowered for a test (the rule reads it at each call)."""

    def __init__(self, limit):
        self.limit = limit

    def __enter__(self):
        self.saved = payload_module.MAX_PAYLOAD_BYTES
        payload_module.MAX_PAYLOAD_BYTES = self.limit

    def __exit__(self, *_):
        payload_module.MAX_PAYLOAD_BYTES = self.saved


class DTypes(unittest.TestCase):
    def test_the_stated_limit(self):
        self.assertEqual(attention_lens.MAX_PAYLOAD_BYTES, 32 * 1024 * 1024)

    def test_float32_stays_float32(self):
        a = attention(1, 2, 4)
        p = bundle(a, tokens(4))[MIME]
        self.assertEqual(p['dtype'], 'float32')
        self.assertEqual(len(base64.b64decode(p['data'])), 2 * 4 * 4 * 4)
        np.testing.assert_array_equal(decoded(p), a)

    def test_float64_becomes_float32(self):
        a = attention(1, 2, 4, dtype=np.float64)
        p = bundle(a, tokens(4))[MIME]
        self.assertEqual(p['dtype'], 'float32')
        np.testing.assert_array_equal(decoded(p), a.astype(np.float32))

    def test_integers_become_float32(self):
        p = bundle(np.eye(3, dtype=np.int64), tokens(3))[MIME]
        self.assertEqual(p['dtype'], 'float32')
        np.testing.assert_array_equal(decoded(p)[0, 0], np.eye(3))

    def test_float16_stays_float16(self):
        a = attention(2, 1, 4, dtype=np.float16)
        p = bundle(a, tokens(4))[MIME]
        self.assertEqual(p['dtype'], 'float16')
        self.assertEqual(len(base64.b64decode(p['data'])), 2 * 4 * 4 * 2)
        np.testing.assert_array_equal(decoded(p), a)

    def test_little_endian_bytes(self):
        a = np.array([[0.5, 0.25], [1.0, 0.0]], dtype='>f4')  # big-endian input
        p = bundle(a, ['a', 'b'])[MIME]
        self.assertEqual(base64.b64decode(p['data'])[:4], np.float32(0.5).astype('<f4').tobytes())
        self.assertEqual(base64.b64decode(p['data'])[:4], bytes([0, 0, 0, 0x3f]))


class SizeRule(unittest.TestCase):
    def test_float16_past_the_limit(self):
        a = attention(2, 2, 8)  # 2 × 2 × 64 × 4 = 1,024 bytes in float32, 512 in float16
        with Limit(1000):
            p = bundle(a, tokens(8))[MIME]
        self.assertEqual(p['dtype'], 'float16')
        self.assertEqual(p['shape'], [2, 2, 8, 8])
        np.testing.assert_array_equal(decoded(p), a.astype(np.float16))
        with Limit(1024):
            self.assertEqual(bundle(a, tokens(8))[MIME]['dtype'], 'float32', 'at the limit itself float32 still fits')

    def test_one_head_past_the_limit_in_float16(self):
        a = attention(2, 3, 8, seed=1)
        a[1, 2] = np.eye(8)  # the most focused head: every query gives all its weight to one key
        with Limit(100):
            v = attention_lens.show(a, tokens(8), title='run')
        p = v.payload
        self.assertEqual(p['shape'], [1, 1, 8, 8])
        self.assertEqual(p['dtype'], 'float32')
        np.testing.assert_array_equal(decoded(p)[0, 0], a[1, 2])
        self.assertEqual(p['title'], 'run · layer=1, head=2 of 2 layers × 3 heads (the whole is over 0 MiB)')
        self.assertIn('layer=1, head=2 of 2 layers × 3 heads × 8 tokens (float32; that head alone', v.text())

    def test_one_head_named_by_layer_and_head(self):
        a = attention(2, 3, 8)
        with Limit(100):
            p = bundle(a, tokens(8), layer=0, head=1)[MIME]
        np.testing.assert_array_equal(decoded(p)[0, 0], a[0, 1])
        self.assertEqual(p['title'], 'layer=0, head=1 of 2 layers × 3 heads (the whole is over 0 MiB)')
        with self.assertRaisesRegex(ValueError, r'head=3, but the attention has 3 heads'):
            with Limit(100):
                attention_lens.show(a, tokens(8), layer=0, head=3)

    def test_float16_input_one_head_stays_float16(self):
        a = attention(2, 2, 8, dtype=np.float16)
        with Limit(100):
            p = bundle(a, tokens(8), layer=1, head=1)[MIME]
        self.assertEqual((p['dtype'], p['shape']), ('float16', [1, 1, 8, 8]))
        np.testing.assert_array_equal(decoded(p)[0, 0], a[1, 1])

    def test_past_float16_range_goes_to_one_head(self):
        a = attention(1, 2, 8)
        a[0, 0, 0, 0] = 70000.0  # scores, not weights: float16 would make it infinite
        with Limit(300):
            p = bundle(a, tokens(8), layer=0, head=0)[MIME]
        self.assertEqual((p['dtype'], p['shape']), ('float32', [1, 1, 8, 8]))
        self.assertEqual(decoded(p)[0, 0, 0, 0], 70000.0)

    def test_the_real_limit_switches_to_float16(self):
        a = np.full((1, 3, 2048, 2048), 1 / 2048, dtype=np.float32)  # 48 MiB in float32, 24 MiB in float16
        p = bundle(a, tokens(2048))[MIME]
        self.assertEqual((p['dtype'], p['shape']), ('float16', [1, 3, 2048, 2048]))
        self.assertEqual(len(base64.b64decode(p['data'])), 3 * 2048 * 2048 * 2)


class Bundle(unittest.TestCase):
    def test_three_mime_types(self):
        b = bundle(attention(12, 12, 16), tokens(16))
        self.assertEqual(set(b), {MIME, 'text/html', 'text/plain'})
        self.assertEqual(b['text/plain'], 'Attention Lens: 12 layers × 12 heads × 16 tokens (float32)')
        self.assertEqual(bundle(attention(1, 1, 1), ['x'])['text/plain'], 'Attention Lens: 1 layer × 1 head × 1 token (float32)')

    def test_include_and_exclude(self):
        v = attention_lens.show(attention(1, 1, 2), tokens(2))
        self.assertEqual(set(v._repr_mimebundle_(include=['text/plain'])), {'text/plain'})
        self.assertEqual(set(v._repr_mimebundle_(exclude=['text/html'])), {MIME, 'text/plain'})
        self.assertEqual(repr(v), 'Attention Lens: 1 layer × 1 head × 2 tokens (float32)')


if __name__ == '__main__':
    unittest.main()
