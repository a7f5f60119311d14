"""Shared by the package's tests: the package from this checkout, random attention (rows summing to 1),
and the payload's values decoded back to numpy, as the extension's reader decodes them."""
import base64
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import attention_lens  # noqa: E402,F401


def attention(layers, heads, n, seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    a = rng.random((layers, heads, n, n))
    return (a / a.sum(-1, keepdims=True)).astype(dtype)


def decoded(payload):
    """The payload's values as numpy: base64 of little-endian float32 or float16, in its shape."""
    kind = '<f4' if payload['dtype'] == 'float32' else '<f2'
    return np.frombuffer(base64.b64decode(payload['data']), dtype=kind).reshape(payload['shape'])


def tokens(n):
    return [f't{i}' for i in range(n)]
