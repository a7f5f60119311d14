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
import struct
import sys

import numpy as np

DTYPES = {np.dtype('<f4'): 'F32', np.dtype('<f2'): 'F16', np.dtype('<f8'): 'F64'}


def _as_numpy(a):
    # A torch tensor (possibly on a GPU, possibly bfloat16, which numpy lacks) becomes float32.
    if hasattr(a, 'detach'):
        a = a.detach().float().cpu().numpy()
    return np.asarray(a)


def save_attention(path, attentions, tokens=None, dtype='float32'):
    if isinstance(attentions, (list, tuple)):
        layers = [_as_numpy(a) for a in attentions]
    else:
        whole = _as_numpy(attentions)
        layers = [whole[l] for l in range(whole.shape[0])]
    header, blobs, at = {}, [], 0
    for l, a in enumerate(layers):
        if a.ndim == 4:
            if a.shape[0] != 1:
                raise ValueError(f'layer {l}: a batch of {a.shape[0]}; pass one sequence (batch 1)')
            a = a[0]
        if a.ndim != 3 or a.shape[1] != a.shape[2]:
            raise ValueError(f'layer {l}: expected [heads, n, n], got {list(a.shape)}')
        a = np.ascontiguousarray(a, dtype=np.dtype(dtype).newbyteorder('<'))
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


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    out, src = argv[1], argv[2]
    loaded = np.load(src)
    arrays = [loaded[k] for k in loaded.files] if hasattr(loaded, 'files') else [loaded]
    if len(arrays) == 1:  # one array: [layers, heads, n, n], maybe with a batch of 1, or one layer's [heads, n, n]
        whole = arrays[0]
        whole = whole[0] if whole.ndim == 5 else whole
        arrays = [whole] if whole.ndim == 3 else whole
    tokens = json.load(open(argv[3], encoding='utf-8')) if len(argv) == 4 else None
    save_attention(out, arrays, tokens)
    print(f'wrote {out}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
