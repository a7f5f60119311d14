"""Shared by the package's tests (pytest; pyproject.toml puts this checkout's package on the path):
random attention (rows summing to 1), names for n tokens, and a payload's values decoded back to
numpy as the extension's reader decodes them."""
import base64
from typing import Any, Callable, Dict, List

import numpy as np
import pytest


def random_attention(layers: int, heads: int, n: int, seed: int = 0, dtype: Any = np.float32) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.random((layers, heads, n, n))
    return (a / a.sum(-1, keepdims=True)).astype(dtype)


def decode(payload: Dict[str, Any]) -> np.ndarray:
    """The payload's values as numpy: base64 of little-endian float32 or float16, in its shape."""
    kind = '<f4' if payload['dtype'] == 'float32' else '<f2'
    return np.frombuffer(base64.b64decode(payload['data']), dtype=kind).reshape(payload['shape'])


def names(n: int) -> List[str]:
    return [f't{i}' for i in range(n)]


@pytest.fixture
def attention() -> Callable[..., np.ndarray]:
    return random_attention


@pytest.fixture
def decoded() -> Callable[[Dict[str, Any]], np.ndarray]:
    return decode


@pytest.fixture
def tokens() -> Callable[[int], List[str]]:
    return names


@pytest.fixture
def small_payload(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """MAX_PAYLOAD_BYTES lowered for one test (the size rule reads it at each call)."""
    from attention_lens import payload
    return lambda limit: monkeypatch.setattr(payload, 'MAX_PAYLOAD_BYTES', limit)
