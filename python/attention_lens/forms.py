"""The forms attention comes in, made one: numpy or torch; [layers, heads, n, n], [heads, n, n] or
[n, n] (each after an optional batch of 1); a Hugging Face `out.attentions` tuple of [1, heads, n, n]
tensors; a list of TransformerLens `cache["pattern", l]` ([1, heads, n, n] or [heads, n, n]). Torch is
never imported: a tensor is known by its type's module.

Only shapes and dtypes are read here: no value is converted or copied, so a lazy input (a broadcast
view, an expanded tensor, a memory map) costs nothing until values.py reads the heads that are shown.
Every problem is a ValueError that says what was given and what was expected.
"""
from typing import Any, List, Tuple

import numpy as np

#: The most tokens and heads the Attention Lens readers open (src/core/tensors/attention-file.ts).
MAX_TOKENS = 4096
# A file the model editor opens may hold heads of up to 32,768 tokens (it draws them as a map of tiles);
# a notebook output carries its values inline, so show() stays at MAX_TOKENS.
MAX_FILE_TOKENS = 32768
MAX_HEADS = 16384

#: One layer, [heads, n, n]: a numpy array or a torch tensor, not yet read.
Layer = Any


def is_torch_tensor(x: object) -> bool:
    """A torch tensor, known without importing torch: its type lives in the torch package."""
    return type(x).__module__.split('.')[0] == 'torch' and hasattr(x, 'detach')


def _torch_problem(t: Any, where: str) -> str:
    """Why a torch tensor has no values numpy can take, or ''."""
    if getattr(t, 'is_meta', False) or str(getattr(t, 'device', '')) == 'meta':
        return f'{where} is a meta tensor: it has a shape but no values (load the weights, or run the model on a real device)'
    layout = str(getattr(t, 'layout', 'torch.strided'))
    if layout != 'torch.strided':
        return f'{where} is a {layout.replace("torch.", "")} tensor, not a dense one: pass {where}.to_dense()'
    if t.is_complex():
        return f'{where} is complex ({str(t.dtype).replace("torch.", "")}): attention weights are real numbers'
    if getattr(t, 'is_quantized', False):
        return f'{where} is quantized ({str(t.dtype).replace("torch.", "")}): pass {where}.dequantize()'
    return ''


def checked(x: Any, where: str) -> Layer:
    """`x` as it is when it is a torch tensor of real numbers, else as a numpy array of real numbers."""
    if is_torch_tensor(x):
        problem = _torch_problem(x, where)
        if problem:
            raise ValueError(problem)
        return x
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:
        raise ValueError(f'{where}: expected an array of numbers ({e})') from None
    if np.issubdtype(a.dtype, np.complexfloating):
        raise ValueError(f'{where} is complex ({a.dtype}): attention weights are real numbers')
    if not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
        raise ValueError(f'{where}: expected numbers, got an array of {a.dtype}')
    return a


def shape(a: Layer) -> Tuple[int, ...]:
    return tuple(int(d) for d in a.shape)


def is_half(a: Layer) -> bool:
    """float16, which stays float16 (bfloat16, which numpy lacks, and everything else become float32)."""
    return str(a.dtype) in ('float16', 'torch.float16')


def _is_array(x: object) -> bool:
    return is_torch_tensor(x) or isinstance(x, np.ndarray)


def layers_of(attention: Any) -> List[Layer]:
    """The attention as a list of per-layer arrays, each [heads, n, n] (batches of 1 taken off), unread."""
    if isinstance(attention, (list, tuple)) and len(attention) == 0:
        raise ValueError('no attention given (an empty list)')
    if isinstance(attention, (list, tuple)) and _is_array(attention[0]):
        layers = [checked(a, f'attention[{l}]') for l, a in enumerate(attention)]
        layers = [a[None] if a.ndim == 2 else a for a in layers]
    else:
        whole = checked(attention, 'attention')
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
            raise ValueError(f'expected [layers, heads, n, n], [heads, n, n] or [n, n], got {list(shape(whole))}')
    out = []
    for l, a in enumerate(layers):
        if a.ndim == 4:
            if a.shape[0] != 1:
                raise ValueError(f'layer {l}: a batch of {a.shape[0]}; pass one sequence (batch 1)')
            a = a[0]
        if a.ndim != 3 or a.shape[1] != a.shape[2]:
            raise ValueError(f'layer {l}: expected [heads, n, n], got {list(shape(a))}')
        out.append(a)
    return out


def dims(layers: List[Layer], max_tokens: int = MAX_TOKENS) -> Tuple[int, int, int]:
    """(layers, heads, n) of layers_of's list, checked from the shapes alone: not empty, every layer
    alike, within what the readers open (`max_tokens`: MAX_FILE_TOKENS for a file)."""
    if not layers:
        raise ValueError('the attention is empty: 0 layers')
    first = shape(layers[0])
    for l, a in enumerate(layers):
        if shape(a) != first:
            raise ValueError(f'layer {l} is {list(shape(a))} but layer 0 is {list(first)}: every layer needs the same heads and tokens')
    heads, n = first[0], first[1]
    if n == 0 or heads == 0:
        raise ValueError(f'the attention is empty: {len(layers)} layers × {heads} heads × {n} tokens')
    if n > max_tokens:
        raise ValueError(f'{n} tokens, more than the {max_tokens} Attention Lens opens')
    if len(layers) * heads > MAX_HEADS:
        raise ValueError(f'{len(layers)} layers × {heads} heads, more than the {MAX_HEADS} heads Attention Lens opens')
    return len(layers), heads, n
