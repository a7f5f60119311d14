"""Torch inputs (run where torch is installed: Debian's /usr/bin/python3 has python3-torch, and npm test
runs this suite there too): a [layers, heads, n, n] tensor, Hugging Face's tuple of [1, heads, n, n],
TransformerLens' list, float16 kept, bfloat16 and float64 as float32, a tensor that requires grad; a
seeded family of tensors numpy cannot take (meta, sparse, quantized, complex) each refused by name; and
the package never imports torch itself."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import attention_lens
from attention_lens import MIME


def payload(a, toks):
    return attention_lens.show(a, toks)._repr_mimebundle_()[MIME]


def test_whole_tensor(attention, tokens, decoded):
    torch = pytest.importorskip('torch')
    a = attention(2, 3, 4)
    p = payload(torch.from_numpy(a), tokens(4))
    assert (p['shape'], p['dtype']) == ([2, 3, 4, 4], 'float32')
    np.testing.assert_array_equal(decoded(p), a)


def test_hugging_face_and_transformer_lens(attention, tokens, decoded):
    torch = pytest.importorskip('torch')
    a = attention(3, 2, 4)
    hf = tuple(torch.from_numpy(a[l][None].copy()) for l in range(3))
    tl = [torch.from_numpy(a[l].copy()) for l in range(3)]
    for form in (hf, tl):
        p = payload(form, tokens(4))
        assert p['shape'] == [3, 2, 4, 4]
        np.testing.assert_array_equal(decoded(p), a)


def test_dtypes(attention, tokens, decoded):
    torch = pytest.importorskip('torch')
    a = attention(1, 2, 4)
    half = payload(torch.from_numpy(a).half(), tokens(4))
    assert half['dtype'] == 'float16'
    np.testing.assert_array_equal(decoded(half), a.astype(np.float16))
    for t in (torch.from_numpy(a).double(), torch.from_numpy(a).bfloat16()):
        p = payload(t, tokens(4))
        assert p['dtype'] == 'float32'
        np.testing.assert_allclose(decoded(p), t.float().numpy())


def test_requires_grad(attention, tokens):
    torch = pytest.importorskip('torch')
    t = torch.from_numpy(attention(1, 1, 3)).requires_grad_(True)
    assert payload(t, tokens(3))['shape'] == [1, 1, 3, 3]


def test_save(tmp_path, attention, tokens):
    torch = pytest.importorskip('torch')
    a = attention(2, 1, 3)
    path = tmp_path / 't.safetensors'
    attention_lens.save(str(path), tuple(torch.from_numpy(a[l][None].copy()) for l in range(2)), tokens(3))
    assert path.stat().st_size > 2 * 9 * 4


def hostile(torch, rng, a):
    """One tensor numpy cannot take as it is, drawn by rng, and the words its refusal must say."""
    kinds = [
        (lambda: torch.empty(a.shape, device='meta'), 'is a meta tensor'),
        (lambda: a.to_sparse(), 'is a sparse_coo tensor, not a dense one'),
        (lambda: a[0, 0].to_sparse_csr(), 'is a sparse_csr tensor, not a dense one'),
        (lambda: torch.complex(a, a * 0), 'is complex (complex64): attention weights are real numbers'),
        (lambda: torch.complex(a.double(), a.double()), 'is complex (complex128)'),
        (lambda: torch.quantize_per_tensor(a, 0.1, 0, torch.quint8), 'is quantized'),
    ]
    make, words = kinds[int(rng.integers(len(kinds)))]
    return make(), words


@pytest.mark.parametrize('seed', range(4))
def test_tensors_without_real_values_are_refused_by_name(seed, tokens):
    # A meta or sparse tensor raised torch's own error from inside the package, and a complex one was
    # shown as its real part.
    torch = pytest.importorskip('torch')
    import warnings
    rng = np.random.default_rng(seed)
    for _ in range(12):
        layers, heads, n = (int(x) for x in rng.integers(1, 4, size=3))
        a = torch.from_numpy(rng.random((layers, heads, n, n)).astype(np.float32))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # torch's "sparse CSR is in beta"
            t, words = hostile(torch, rng, a)
        # Hugging Face's form, a tuple of layers, for the dense layouts.
        as_layers = bool(rng.integers(2)) and 'sparse' not in words
        given = tuple(t[l][None] for l in range(t.shape[0])) if as_layers else t
        where = 'attention[0]' if as_layers else 'attention'
        with pytest.raises(ValueError, match='^' + re.escape(f'{where} {words}')):
            attention_lens.show(given, tokens(t.shape[-1]))


def test_lazy_expanded_tensor_reads_one_head(tokens):
    torch = pytest.importorskip('torch')
    t = torch.tensor(1 / 4096.).expand(16384, 1, 4096, 4096)  # 1 TiB as float32, none of it stored
    with pytest.raises(ValueError, match=r'name it with layer= and head='):
        attention_lens.show(t, tokens(4096))
    v = attention_lens.show(t, tokens(4096), layer=7, head=0)
    assert v.chosen == (7, 0) and v.payload['shape'] == [1, 1, 4096, 4096]


def test_numpy_input_never_imports_torch(tmp_path):
    code = ('import sys; sys.path.insert(0, sys.argv[1]); import numpy as np, attention_lens; '
            'v = attention_lens.show(np.eye(2), ["a", "b"]); v._repr_mimebundle_(); '
            'attention_lens.save(sys.argv[2], np.eye(2), ["a", "b"]); print("torch" in sys.modules)')
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    out = subprocess.run([sys.executable, '-c', code, root, str(tmp_path / 'x.safetensors')], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'False'
