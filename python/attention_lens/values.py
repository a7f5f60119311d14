"""The values of the heads that are used, read a block of heads at a time: never the whole attention
at once, so memory stays within BLOCK_BYTES (plus what is kept) whatever the input's size, and a
lazy input is read only where it is shown. Each block is checked finite as it is read, and a problem
names its layer, head, query and key.
"""
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .forms import Layer, is_half, is_torch_tensor

Array = NDArray[Any]

#: The most bytes of float32 one block of heads takes.
BLOCK_BYTES = 64 * 1024 * 1024

#: The most weights read to find the most focused head (4 GiB of float32, a few seconds): past it the
#: caller names the head, since that is the one head shown.
MAX_SCAN_VALUES = 2 ** 30

FLOAT16_MAX = 65504.0


def heads_per_block(n: int) -> int:
    return max(1, BLOCK_BYTES // (4 * n * n))


def _element(a: Layer, h: int, i: int, j: int) -> float:
    try:
        return float(a[h, i, j])
    except Exception:  # the value as converted is still shown below
        return float('nan')


def raw(a: Layer, h0: int, h1: int, dtype: Any, where: str) -> Array:
    """Heads h0..h1-1 of one layer as numpy in `dtype` (float16, float32 or float64), unchecked."""
    if is_torch_tensor(a):
        try:
            t = a.detach()[h0:h1]
            t = t.half() if dtype == np.float16 else t.double() if dtype == np.float64 else t.float()
            return np.asarray(t.cpu().numpy())
        except Exception as e:  # whatever torch says, one line that names the tensor
            raise ValueError(f'{where}: torch could not give its values ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ""})') from None
    with np.errstate(over='ignore', invalid='ignore'):
        out: Array = np.asarray(a[h0:h1], dtype=dtype)
    return out


def block(layers: List[Layer], l: int, h0: int, h1: int, dtype: Any = None) -> Array:
    """Heads h0..h1-1 of layer l, [h1 - h0, n, n], in float16 when the layer is float16 (else float32)
    or in `dtype`, checked finite in float32 (what the readers hold)."""
    a = layers[l]
    kind = np.dtype(dtype) if dtype is not None else np.dtype(np.float16 if is_half(a) else np.float32)
    values = raw(a, h0, h1, kind, f'layer {l}')
    with np.errstate(over='ignore', invalid='ignore'):
        bad = ~np.isfinite(values if kind != np.float64 else values.astype(np.float32))
    if bad.any():
        h, i, j = (int(x) for x in np.argwhere(bad)[0])
        given = _element(a, h0 + h, i, j)
        past = ", past float32's range" if np.isfinite(given) else ''
        raise ValueError(f'the weight of query {i} on key {j} in layer {l} head {h0 + h} is {given:g}{past}: attention must be finite')
    return values


def blocks(layers: List[Layer], l: int, heads: Sequence[int], dtype: Any = None) -> Iterator[Tuple[int, Array]]:
    """(first head, block) over the given heads of layer l (consecutive), a block at a time."""
    n = int(layers[l].shape[-1])
    step = heads_per_block(n)
    for k in range(0, len(heads), step):
        h0, h1 = heads[k], heads[min(k + step, len(heads)) - 1] + 1
        yield h0, block(layers, l, h0, h1, dtype)


def whole(layers: List[Layer], dtype: Any) -> Optional[Array]:
    """Every head, [layers, heads, n, n] in `dtype`; None when dtype is float16 and a weight is past its range."""
    heads, n = int(layers[0].shape[0]), int(layers[0].shape[-1])
    out = np.empty((len(layers), heads, n, n), dtype=dtype)
    for l in range(len(layers)):
        for h0, b in blocks(layers, l, range(heads), None):
            if out.dtype == np.float16 and b.dtype != np.float16 and float(np.abs(b).max()) > FLOAT16_MAX:
                return None
            out[l, h0:h0 + len(b)] = b
    return out


def focus(b: Array) -> Array:
    """Per head of a [heads, n, n] block: the weight its queries give their strongest key, on average."""
    scores: Array = b.max(axis=-1).mean(axis=-1, dtype=np.float64)
    return scores


def most_focused_head(layers: List[Layer], layer: Optional[int] = None, head: Optional[int] = None) -> Tuple[int, int]:
    """(layer, head), among those matching `layer` and `head` when given, whose queries give their strongest key
    the most weight on average; the first on a tie. A ValueError, before reading anything, when that would read
    more than MAX_SCAN_VALUES weights."""
    count, heads, n = len(layers), int(layers[0].shape[0]), int(layers[0].shape[-1])
    ls = [layer] if layer is not None else list(range(count))
    hs = [head] if head is not None else list(range(heads))
    cost = len(ls) * len(hs) * n * n
    if cost > MAX_SCAN_VALUES:
        raise ValueError(f'{count} layer(s) × {heads} head(s) × {n} tokens is too much to show whole, so one head is shown, '
                         f'and finding the most focused one would read {cost:,} weights (at most {MAX_SCAN_VALUES:,}): '
                         'name it with layer= and head=')
    best, at = -np.inf, (ls[0], hs[0])
    for l in ls:
        for h0, b in blocks(layers, l, hs):
            scores = focus(b)
            k = int(np.argmax(scores))
            if scores[k] > best:
                best, at = float(scores[k]), (l, h0 + k)
    return at
