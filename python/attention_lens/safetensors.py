"""The .safetensors file the Attention Lens model editor and `attn inspect` read, written with the
standard library and numpy: an 8-byte little-endian header size, the JSON header (one tensor per
layer, `layers.L.attention` [heads, n, n], the tokens as JSON in `__metadata__.tokens`), padded with
spaces so the data starts 8-byte aligned, then the little-endian values.

Every value is checked (finite, and within the chosen dtype's range) before the file is opened, and
the values are read and written a block of heads at a time, so memory stays bounded whatever the size.
"""
import json
import os
import shutil
import struct
from typing import Any, List, Optional

import numpy as np

from . import values as _values
from .forms import Layer, is_half


DTYPES = {np.dtype('<f4'): 'F32', np.dtype('<f2'): 'F16', np.dtype('<f8'): 'F64'}


def kind_of(a: Layer, dtype: Any) -> 'np.dtype[Any]':
    """The dtype a layer is written in: `dtype` when given, else float16 kept and anything else float32."""
    kind = np.dtype(dtype) if dtype is not None else np.dtype(np.float16 if is_half(a) else np.float32)
    return kind.newbyteorder('<')


def check(layers: List[Layer], dtype: Any) -> None:
    """Every value finite and, written as float16, within its range: a ValueError naming the place otherwise."""
    heads = range(int(layers[0].shape[0]))
    for l, a in enumerate(layers):
        narrow = kind_of(a, dtype) == np.float16 and not is_half(a)
        for h0, b in _values.blocks(layers, l, heads):
            if narrow:
                big = np.abs(b) > _values.FLOAT16_MAX
                if big.any():
                    h, i, j = (int(x) for x in np.argwhere(big)[0])
                    raise ValueError(f'dtype={dtype!r}: the weight of query {i} on key {j} in layer {l} head {h0 + h} is {float(b[h, i, j]):g}, '
                                     f'past float16\'s largest ({_values.FLOAT16_MAX:g}); save it as float32 (dtype=None)')


def room(path: str, size: int) -> None:
    """A ValueError, before any value is read, when the file would not fit on its disk."""
    try:
        free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    except OSError:
        return  # no such folder: open() says so in its own words
    if size > free:
        raise ValueError(f'{path}: the file would take {size:,} bytes, and its disk has {free:,} free')


def write(path: str, layers: List[Layer], tokens: Optional[List[str]] = None, dtype: Any = None) -> None:
    """`layers`: layers_of's list; `tokens`: text.token_list's. Nothing is written when a check fails: the size
    against the disk's free space first (from the shapes alone), then every value."""
    values_bytes = sum(int(np.prod(a.shape)) * kind_of(a, dtype).itemsize for a in layers)
    room(path, values_bytes + 8 + 64 * len(layers) + (0 if tokens is None else len(json.dumps(tokens)) * 2))
    check(layers, dtype)
    header, at = {}, 0
    for l, a in enumerate(layers):
        kind = kind_of(a, dtype)
        size = int(np.prod(a.shape)) * kind.itemsize
        header[f'layers.{l}.attention'] = {'dtype': DTYPES[kind], 'shape': [int(d) for d in a.shape], 'data_offsets': [at, at + size]}
        at += size
    if tokens is not None:
        header['__metadata__'] = {'tokens': json.dumps(tokens)}
    text = json.dumps(header).encode('utf-8')
    text += b' ' * (-len(text) % 8)  # the data starts 8-byte aligned
    heads = range(int(layers[0].shape[0]))
    f = open(path, 'wb')
    try:
        with f:
            f.write(struct.pack('<Q', len(text)))
            f.write(text)
            for l, a in enumerate(layers):
                kind = kind_of(a, dtype)
                for _, b in _values.blocks(layers, l, heads, kind.newbyteorder('=')):
                    f.write(np.ascontiguousarray(b, dtype=kind).tobytes())
    except BaseException:
        # A half-written file is one the editor refuses: none is better.
        os.remove(path)
        raise
