"""Save a model's attention where Attention Lens can open it: one .safetensors file with every
layer's weights and the tokens, written with the standard library and numpy only (no torch or
safetensors package needed): a thin wrapper over the attention_lens package in python/. Open the file with `attn inspect FILE` or in VS Code.

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
import sys

import numpy as np

# The writer is the attention_lens package's (python/ in this repository), used from the checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'python'))
import attention_lens  # noqa: E402


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def save_attention(path, attentions, tokens=None, dtype=None):
    """dtype: None keeps float16 as it is and writes anything else as float32 (attention_lens.save)."""
    attention_lens.save(path, attentions, tokens, dtype)


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
        # A .npy is mapped, not read: save() reads it a block of heads at a time.
        loaded = np.load(inputs[0], allow_pickle=False, mmap_mode='r')
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
            arrays = arrays[0]
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
