"""Torch inputs (run where torch is installed: Debian's /usr/bin/python3 has python3-torch; skipped
elsewhere): a [layers, heads, n, n] tensor, Hugging Face's tuple of [1, heads, n, n], TransformerLens'
list, float16 kept, bfloat16 and float64 as float32, a tensor that requires grad; and the package never
imports torch itself."""
import subprocess
import sys
import unittest

import numpy as np

from helpers import attention, decoded, tokens
import attention_lens
from attention_lens import MIME

try:
    import torch
except ImportError:  # pragma: no cover - numpy-only interpreters
    torch = None


@unittest.skipIf(torch is None, 'torch is not installed in this interpreter')
class Torch(unittest.TestCase):
    def payload(self, a, toks):
        return attention_lens.show(a, toks)._repr_mimebundle_()[MIME]

    def test_whole_tensor(self):
        a = attention(2, 3, 4)
        p = self.payload(torch.from_numpy(a), tokens(4))
        self.assertEqual((p['shape'], p['dtype']), ([2, 3, 4, 4], 'float32'))
        np.testing.assert_array_equal(decoded(p), a)

    def test_hugging_face_and_transformer_lens(self):
        a = attention(3, 2, 4)
        hf = tuple(torch.from_numpy(a[l][None].copy()) for l in range(3))
        tl = [torch.from_numpy(a[l].copy()) for l in range(3)]
        for form in (hf, tl):
            p = self.payload(form, tokens(4))
            self.assertEqual(p['shape'], [3, 2, 4, 4])
            np.testing.assert_array_equal(decoded(p), a)

    def test_dtypes(self):
        a = attention(1, 2, 4)
        half = self.payload(torch.from_numpy(a).half(), tokens(4))
        self.assertEqual(half['dtype'], 'float16')
        np.testing.assert_array_equal(decoded(half), a.astype(np.float16))
        for t in (torch.from_numpy(a).double(), torch.from_numpy(a).bfloat16()):
            p = self.payload(t, tokens(4))
            self.assertEqual(p['dtype'], 'float32')
            np.testing.assert_allclose(decoded(p), t.float().numpy())

    def test_requires_grad(self):
        t = torch.from_numpy(attention(1, 1, 3)).requires_grad_(True)
        self.assertEqual(self.payload(t, tokens(3))['shape'], [1, 1, 3, 3])

    def test_save(self):
        import os
        import tempfile
        a = attention(2, 1, 3)
        with tempfile.TemporaryDirectory(prefix='attn-') as d:
            path = os.path.join(d, 't.safetensors')
            attention_lens.save(path, tuple(torch.from_numpy(a[l][None].copy()) for l in range(2)), tokens(3))
            self.assertGreater(os.path.getsize(path), 2 * 9 * 4)


class NoTorchImport(unittest.TestCase):
    def test_numpy_input_never_imports_torch(self):
        code = ('import sys; sys.path.insert(0, sys.argv[1]); import numpy as np, attention_lens; '
                'v = attention_lens.show(np.eye(2), ["a", "b"]); v._repr_mimebundle_(); '
                'attention_lens.save(sys.argv[2], np.eye(2), ["a", "b"]); print("torch" in sys.modules)')
        import os
        import tempfile
        with tempfile.TemporaryDirectory(prefix='attn-') as d:
            root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
            out = subprocess.run([sys.executable, '-c', code, root, os.path.join(d, 'x.safetensors')], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), 'False')


if __name__ == '__main__':
    unittest.main()
