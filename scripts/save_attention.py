"""Save a model's attention where Attention Lens can open it: one .safetensors file with every
layer's weights and the tokens, written with the standard library and numpy only (no torch or
safetensors package needed). Open the file with `attn inspect FILE` or in VS Code.

From Python:
    from save_attention import save_attention
    save_attention("run1.safetensors", attentions, tokens)

`attentions` is one array (or torch tensor) per layer, each [batch 1, heads, n, n] or [heads, n, n]
(Hugging Face's `outputs.attentions`, or TransformerLens' `[cache["pattern", l] for l in ...]`),
or one [layers, heads, n, n] array. `tokens` is the list of n token strings.

From the shell, a file of your own: python3 save_attention.py OUT.safetensors IN.npy|IN.npz [TOKENS.json]
"""
import json
import os
import re
import struct
import sys

import numpy as np

DTYPES = {np.dtype('<f4'): 'F32', np.dtype('<f2'): 'F16', np.dtype('<f8'): 'F64'}


def _as_numpy(a):
    # A torch tensor (possibly on a GPU, possibly bfloat16, which numpy lacks) becomes float32.
    if hasattr(a, 'detach'):
        a = a.detach().float().cpu().numpy()
    return np.asarray(a)


def _layers_of(whole):
    """One array: [n, n], [heads, n, n], [layers, heads, n, n], or any of them after a batch of 1."""
    if whole.ndim == 5:
        if whole.shape[0] != 1:
            raise ValueError(f'a batch of {whole.shape[0]} sequences; pass one (batch 1)')
        whole = whole[0]
    if whole.ndim == 2:
        return [whole[None]]
    if whole.ndim == 3:
        return [whole]
    if whole.ndim == 4:
        return [whole[l] for l in range(whole.shape[0])]
    raise ValueError(f'expected [layers, heads, n, n], [heads, n, n] or [n, n], got {list(whole.shape)}')


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def save_attention(path, attentions, tokens=None, dtype=None):
    """dtype: None keeps float16 as it is and writes anything else as float32."""
    if isinstance(tokens, (str, bytes)):
        raise ValueError('tokens must be a list of strings, one per token, not one string')
    if isinstance(attentions, (list, tuple)):
        if len(attentions) == 0:
            raise ValueError('no attention given (an empty list)')
        layers = [_as_numpy(a) for a in attentions]
        layers = [a[None] if a.ndim == 2 else a for a in layers]
    else:
        layers = _layers_of(_as_numpy(attentions))
    header, blobs, at = {}, [], 0
    for l, a in enumerate(layers):
        if a.ndim == 4:
            if a.shape[0] != 1:
                raise ValueError(f'layer {l}: a batch of {a.shape[0]}; pass one sequence (batch 1)')
            a = a[0]
        if a.ndim != 3 or a.shape[1] != a.shape[2]:
            raise ValueError(f'layer {l}: expected [heads, n, n], got {list(a.shape)}')
        # float16 stays float16 (widening it doubled the file); anything else is written as float32.
        kind = np.dtype(dtype) if dtype is not None else (np.dtype(np.float16) if a.dtype == np.float16 else np.dtype(np.float32))
        a = np.ascontiguousarray(a, dtype=kind.newbyteorder('<'))
        data = a.tobytes()
        header[f'layers.{l}.attention'] = {'dtype': DTYPES[a.dtype], 'shape': list(a.shape), 'data_offsets': [at, at + len(data)]}
        blobs.append(data)
        at += len(data)
    if tokens is not None:
        tokens = [str(t) for t in tokens]
        n = layers[0].shape[-1]
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


def _layer_number(name):
    m = re.search(r'(\d+)\D*$', name)
    return int(m.group(1)) if m else None


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    out, inputs = argv[1], argv[2:]
    for given in inputs:
        if os.path.exists(out) and _same_file(out, given):
            print(f'save_attention: {out} is {given}, an input; name another file', file=sys.stderr)
            return 2
    try:
        loaded = np.load(inputs[0], allow_pickle=False)
        if hasattr(loaded, 'files'):
            names = list(loaded.files)
            if not names:
                raise ValueError(f'{inputs[0]}: holds no arrays')
            numbers = [_layer_number(n) for n in names]
            if len(names) > 1:
                # Members are layers, ordered by the number their names end in, not by their order in the zip.
                if None in numbers:
                    raise ValueError(f'{inputs[0]}: {len(names)} arrays, but {names[numbers.index(None)]!r} does not end in a layer number')
                if len(set(numbers)) != len(numbers):
                    raise ValueError(f'{inputs[0]}: two arrays end in the same layer number')
                names = [n for _, n in sorted(zip(numbers, names))]
            arrays = [loaded[k] for k in names]
        else:
            arrays = [loaded]
        if len(arrays) == 1:
            arrays = _layers_of(arrays[0])
        tokens = None
        if len(inputs) == 2:
            with open(inputs[1], encoding='utf-8') as f:
                tokens = json.load(f)
            if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
                raise ValueError(f'{inputs[1]}: must be a JSON list of strings')
        save_attention(out, arrays, tokens)
    except (ValueError, OSError) as e:
        print(f'save_attention: {e}', file=sys.stderr)
        return 1
    print(f'wrote {out}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
