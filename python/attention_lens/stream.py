"""save() for attention too big to hold: heads given one at a time (a callable `heads(layer, head)` or an
iterator of heads, layer-major), each [n, n] numpy or torch, written to the .safetensors as it comes.
A 32,768-token head is 2 GiB in float16: only the head given and a block of its rows (8 MiB) are held.

The header needs the shape and the dtype before any value: `shape=(layers, heads, n)` is given, and
with dtype=None the first head's (float16 kept, anything else float32) is every head's. Each head is
checked as it is written (its shape, every value finite and within float16's range when written as
float16); a head that fails, or an iterator that ends early or gives more, removes the file.
"""
import json
import os
import struct
from typing import Any, Iterator, List, Optional, Tuple

import numpy as np

from . import forms
from .forms import MAX_FILE_TOKENS, MAX_HEADS
from .safetensors import DTYPES, room
from .values import FLOAT16_MAX, MAX_SCAN_VALUES, raw

# Rows converted and written at once.
ROW_BLOCK_BYTES = 8 * 1024 * 1024


def is_streamed(attention: Any) -> bool:
    """Whether `attention` gives its heads one at a time: a callable that is no tensor, or an iterator."""
    if isinstance(attention, np.ndarray) or forms.is_torch_tensor(attention):
        return False
    return callable(attention) or (hasattr(attention, '__next__') and iter(attention) is attention)


def checked_shape(shape: Any) -> Tuple[int, int, int]:
    """(layers, heads, n) as given with shape=, within what the model editor opens: a ValueError otherwise."""
    if not (isinstance(shape, (tuple, list)) and len(shape) == 3 and all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 1 for d in shape)):
        raise ValueError(f'shape={shape!r}: heads given one at a time need shape=(layers, heads, n), three whole numbers ≥ 1')
    layers, heads, n = (int(d) for d in shape)
    if n > MAX_FILE_TOKENS:
        raise ValueError(f'shape={shape!r}: {n} tokens, more than the {MAX_FILE_TOKENS} Attention Lens opens')
    if layers * heads > MAX_HEADS:
        raise ValueError(f'shape={shape!r}: {layers} layers × {heads} heads, more than the {MAX_HEADS} heads Attention Lens opens')
    if layers * heads * n * n > MAX_SCAN_VALUES:
        raise ValueError(f'shape={shape!r}: {layers * heads * n * n:,} weights, more than the {MAX_SCAN_VALUES:,} the model editor reads')
    return layers, heads, n


def _heads(attention: Any, layers: int, heads: int) -> Iterator[Tuple[int, int, Any]]:
    """(layer, head, values) in order, from the callable or the iterator (checked for its count)."""
    if callable(attention):
        for l in range(layers):
            for h in range(heads):
                yield l, h, attention(l, h)
        return
    it = iter(attention)
    for k in range(layers * heads):
        # Yielded as it comes, never kept in this frame: the next head is asked for with the last one let go.
        try:
            yield k // heads, k % heads, next(it)
        except StopIteration:
            raise ValueError(f'the heads ended after {k} of {layers} × {heads}') from None
    for _ in it:
        raise ValueError(f'more heads than the {layers} × {heads} of shape=')


def _kind(head: Any, dtype: Any) -> 'np.dtype[Any]':
    kind = np.dtype(dtype) if dtype is not None else np.dtype(np.float16 if forms.is_half(head) else np.float32)
    return kind.newbyteorder('<')


def _rows(head: Any, l: int, h: int, n: int, kind: 'np.dtype[Any]', dtype: Any) -> Iterator[bytes]:
    """The head's rows as bytes of `kind`, a block at a time, each block checked."""
    given = tuple(int(d) for d in forms.shape(head))
    if given not in ((n, n), (1, n, n)):
        raise ValueError(f'layer {l} head {h}: expected [{n}, {n}] (shape=), got {list(given)}')
    if len(given) == 3:
        head = head[0]
    step = max(1, ROW_BLOCK_BYTES // (n * kind.itemsize))
    wide = np.float64 if kind == np.float64 else np.float32
    for r0 in range(0, n, step):
        b = raw(head, r0, min(n, r0 + step), wide, f'layer {l} head {h}')
        with np.errstate(over='ignore', invalid='ignore'):
            bad = ~np.isfinite(b.astype(np.float32) if kind != np.float64 else b)
            if kind == np.float16:
                bad |= np.abs(b) > FLOAT16_MAX
        if bad.any():
            i, j = (int(x) for x in np.argwhere(bad)[0])
            past = f', past float16\'s largest ({FLOAT16_MAX:g}); save it as float32 (dtype=None)' if kind == np.float16 and np.isfinite(b[i, j]) else ': attention must be finite'
            raise ValueError(f'the weight of query {r0 + i} on key {j} in layer {l} head {h} is {float(b[i, j]):g}{past}')
        yield np.ascontiguousarray(b, dtype=kind).tobytes()


def write_heads(path: str, attention: Any, shape: Any, tokens: Optional[List[str]], dtype: Any) -> None:
    """Writes heads given one at a time (see the module's docstring); no file is left when a check fails."""
    layers, heads, n = checked_shape(shape)
    source = _heads(attention, layers, heads)
    first = next(source)
    kind = _kind(first[2], dtype)
    pending: Optional[Tuple[int, int, Any]] = first
    del first
    size = heads * n * n * kind.itemsize
    room(path, layers * size + 8 + 64 * layers + (0 if tokens is None else len(json.dumps(tokens)) * 2))
    header = {f'layers.{l}.attention': {'dtype': DTYPES[kind], 'shape': [heads, n, n], 'data_offsets': [l * size, (l + 1) * size]} for l in range(layers)}
    if tokens is not None:
        header['__metadata__'] = {'tokens': json.dumps(tokens)}
    text = json.dumps(header).encode('utf-8')
    text += b' ' * (-len(text) % 8)  # the data starts 8-byte aligned
    f = open(path, 'wb')
    try:
        with f:
            f.write(struct.pack('<Q', len(text)))
            f.write(text)
            while pending is not None:
                l, h, head = pending
                pending = None
                for block in _rows(head, l, h, n, kind, dtype):
                    f.write(block)
                # The head is let go before the next one is asked for: one head in memory at a time.
                del head
                pending = next(source, None)
    except BaseException:
        os.remove(path)
        raise



