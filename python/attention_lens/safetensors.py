"""The .safetensors file the Attention Lens model editor and `attn inspect` read, written with the
standard library and numpy: an 8-byte little-endian header size, the JSON header (one tensor per
layer, `layers.L.attention` [heads, n, n], the tokens as JSON in `__metadata__.tokens`), padded with
spaces so the data starts 8-byte aligned, then the little-endian values.
"""
import json
import struct

import numpy as np

DTYPES = {np.dtype('<f4'): 'F32', np.dtype('<f2'): 'F16', np.dtype('<f8'): 'F64'}


def write(path, layers, tokens=None, dtype=None):
    """`layers`: [heads, n, n] arrays (forms.layers_of). dtype None keeps float16 and writes anything else as float32."""
    header, blobs, at = {}, [], 0
    for l, a in enumerate(layers):
        # float16 stays float16 (widening it doubled the file); anything else is written as float32.
        kind = np.dtype(dtype) if dtype is not None else (np.dtype(np.float16) if a.dtype == np.float16 else np.dtype(np.float32))
        a = np.ascontiguousarray(a, dtype=kind.newbyteorder('<'))
        data = a.tobytes()
        header[f'layers.{l}.attention'] = {'dtype': DTYPES[a.dtype], 'shape': list(a.shape), 'data_offsets': [at, at + len(data)]}
        blobs.append(data)
        at += len(data)
    if tokens is not None:
        n = layers[0].shape[-1]
        if isinstance(tokens, (str, bytes)):
            raise ValueError('tokens must be a list of strings, one per token, not one string')
        tokens = [str(t) for t in tokens]
        if len(tokens) != n:
            raise ValueError(f'{len(tokens)} tokens for {n} × {n} attention')
        header['__metadata__'] = {'tokens': json.dumps(tokens)}
    text = json.dumps(header).encode('utf-8')
    text += b' ' * (-len(text) % 8)  # the data starts 8-byte aligned
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)
