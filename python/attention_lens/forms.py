"""The forms attention comes in, made one: numpy or torch; [layers, heads, n, n], [heads, n, n] or
[n, n] (each after an optional batch of 1); a Hugging Face `out.attentions` tuple of [1, heads, n, n]
tensors; a list of TransformerLens `cache["pattern", l]` ([1, heads, n, n] or [heads, n, n]). Torch is
never imported: a tensor is known by its type's module and turned into numpy by its own methods.
Every problem is a ValueError that says what was given and what was expected.
"""
import numpy as np

#: The most tokens and heads the Attention Lens readers open (src/core/tensors/attention-file.ts).
MAX_TOKENS = 4096
MAX_HEADS = 16384


def is_torch_tensor(x):
    """A torch tensor, known without importing torch: its type lives in the torch package."""
    return type(x).__module__.split('.')[0] == 'torch' and hasattr(x, 'detach')


def as_numpy(x, where='attention'):
    """One array as numpy: a torch tensor (any device; bfloat16, which numpy lacks, as float32) or anything numpy takes."""
    if is_torch_tensor(x):
        t = x.detach()
        if str(t.dtype) != 'torch.float16':
            t = t.float()
        return t.cpu().numpy()
    a = np.asarray(x)
    if not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
        raise ValueError(f'{where}: expected numbers, got an array of {a.dtype}')
    return a


def _is_array(x):
    return is_torch_tensor(x) or isinstance(x, np.ndarray)


def layers_of(attention):
    """The attention as a list of per-layer arrays, each [heads, n, n] (batches of 1 taken off)."""
    if isinstance(attention, (list, tuple)) and len(attention) == 0:
        raise ValueError('no attention given (an empty list)')
    if isinstance(attention, (list, tuple)) and _is_array(attention[0]):
        layers = [as_numpy(a, f'layer {l}') for l, a in enumerate(attention)]
        layers = [a[None] if a.ndim == 2 else a for a in layers]
    else:
        whole = as_numpy(attention)
        if whole.ndim == 5:
            if whole.shape[0] != 1:
                raise ValueError(f'a batch of {whole.shape[0]} sequences; pass one (batch 1)')
            whole = whole[0]
        if whole.ndim == 2:
            layers = [whole[None]]
        elif whole.ndim == 3:
            layers = [whole]
        elif whole.ndim == 4:
            layers = [whole[l] for l in range(whole.shape[0])]
        else:
            raise ValueError(f'expected [layers, heads, n, n], [heads, n, n] or [n, n], got {list(whole.shape)}')
    out = []
    for l, a in enumerate(layers):
        if a.ndim == 4:
            if a.shape[0] != 1:
                raise ValueError(f'layer {l}: a batch of {a.shape[0]}; pass one sequence (batch 1)')
            a = a[0]
        if a.ndim != 3 or a.shape[1] != a.shape[2]:
            raise ValueError(f'layer {l}: expected [heads, n, n], got {list(a.shape)}')
        out.append(a)
    return out


def token_list(tokens, n):
    """The tokens as a list of n strings; a ValueError when they are not one string per token."""
    if tokens is None:
        raise ValueError(f'tokens are needed: a list of {n} strings, one per query and key')
    if isinstance(tokens, (str, bytes)):
        raise ValueError('tokens must be a list of strings, one per token, not one string')
    tokens = [str(t) for t in tokens]
    if len(tokens) != n:
        raise ValueError(f'{len(tokens)} tokens for {n} × {n} attention')
    return tokens


def stacked(attention):
    """[layers, heads, n, n] as one array (float16 kept when every layer is float16, else float32), checked finite."""
    layers = layers_of(attention)
    if not layers:
        raise ValueError('the attention is empty: 0 layers')
    first = layers[0].shape
    for l, a in enumerate(layers):
        if a.shape != first:
            raise ValueError(f'layer {l} is {list(a.shape)} but layer 0 is {list(first)}: every layer needs the same heads and tokens')
    heads, n = first[0], first[1]
    if n == 0 or heads == 0:
        raise ValueError(f'the attention is empty: {len(layers)} layers × {heads} heads × {n} tokens')
    if n > MAX_TOKENS:
        raise ValueError(f'{n} tokens, more than the {MAX_TOKENS} Attention Lens opens')
    if len(layers) * heads > MAX_HEADS:
        raise ValueError(f'{len(layers)} layers × {heads} heads, more than the {MAX_HEADS} heads Attention Lens opens')
    half = all(a.dtype == np.float16 for a in layers)
    whole = np.stack([np.asarray(a, dtype=np.float16 if half else np.float32) for a in layers])
    bad = ~np.isfinite(whole)
    if bad.any():
        l, h, i, j = (int(x) for x in np.argwhere(bad)[0])
        raise ValueError(f'the weight of query {i} on key {j} in layer {l} head {h} is {whole[l, h, i, j]}: attention must be finite')
    return whole
