"""The MIME payload a notebook output carries, application/vnd.attention-lens.v1+json:
{ "tokens", "shape": [layers, heads, n, n], "dtype": "float32" | "float16", "data": base64 of the
little-endian values, "title"? }. The size rule (MAX_PAYLOAD_BYTES, 32 MiB of values), decided from
the shape before any value is read:
  1. every head in float32 when that fits (float16 input stays float16: it is exact as it is);
  2. else every head in float16, when that fits and every weight is within float16's range;
  3. else the chosen head alone, shape [1, 1, n, n], at full precision (float32; float16 input as it is):
     `layer=` and `head=` when given, else the most focused head, the one whose queries give their
     strongest key the most weight on average (the first such head on a tie); the title names it.
     Only that head is converted; finding it reads the others a block at a time (values.py).
The extension's reader of this payload is src/protocol/attention-payload.ts.
"""
import base64
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import values as _values
from .values import Array
from .forms import Layer, is_half


MIME = 'application/vnd.attention-lens.v1+json'

#: The most bytes of values a payload carries (32 MiB), the line of the size rule above.
MAX_PAYLOAD_BYTES = 32 * 1024 * 1024

#: The longest title the extension keeps (src/protocol/attention-payload.ts), in UTF-16 code units as JavaScript counts.
MAX_TITLE_CHARS = 1000

Payload = Dict[str, Any]


def encode(values: Array) -> str:
    """Base64 of the values' little-endian bytes."""
    return base64.b64encode(np.ascontiguousarray(values, dtype=values.dtype.newbyteorder('<')).tobytes()).decode('ascii')


def _index(name: str, value: Any, limit: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not (isinstance(value, (int, np.integer)) and 0 <= value < limit):
        raise ValueError(f'{name}={value!r}, but the attention has {limit} {name}s, numbered from 0')
    return int(value)


def build(layers: List[Layer], tokens: List[str], title: Optional[str] = None,
          layer: Any = None, head: Any = None) -> Tuple[Payload, Optional[Tuple[int, int]]]:
    """(payload, chosen): the payload of layers_of's checked list and its tokens, by the size rule, and the
    (layer, head) it holds alone, or None when it holds every head."""
    count_layers, heads, n = len(layers), int(layers[0].shape[0]), int(layers[0].shape[-1])
    count = count_layers * heads * n * n
    half_input = all(is_half(a) for a in layers)
    layer, head = _index('layer', layer, count_layers), _index('head', head, heads)
    _check_title(title, False)
    chosen = None
    values = None
    if count * (2 if half_input else 4) <= MAX_PAYLOAD_BYTES:
        values = _values.whole(layers, np.float16 if half_input else np.float32)
    elif count * 2 <= MAX_PAYLOAD_BYTES:
        values = _values.whole(layers, np.float16)
    if values is None:
        if layer is None or head is None:
            layer, head = _values.most_focused_head(layers, layer, head)
        chosen = (layer, head)
        values = _values.block(layers, layer, head, head + 1)[None]
    payload: Payload = {
        'tokens': list(tokens),
        'shape': [int(d) for d in values.shape],
        'dtype': 'float16' if values.dtype == np.float16 else 'float32',
        'data': encode(values),
    }
    if chosen is not None:
        what = f'layer={chosen[0]}, head={chosen[1]} of {count_layers} layers × {heads} heads (the whole is over {MAX_PAYLOAD_BYTES // 2**20} MiB)'
        payload['title'] = f'{title} · {what}' if title else what
    elif title is not None:
        payload['title'] = title
    _check_title(payload.get('title'), chosen is not None)
    return payload, chosen


def _check_title(title: Optional[str], named: bool) -> None:
    """A ValueError for a title longer than the extension keeps, counted as JavaScript counts."""
    length = len(title.encode('utf-16-le')) // 2 if title else 0
    if length > MAX_TITLE_CHARS:
        beside = ' with the chosen head\'s name' if named else ''
        raise ValueError(f'the title is {length} characters{beside}; at most {MAX_TITLE_CHARS} (the extension refuses a longer one)')


def summary(payload: Payload, source_shape: Tuple[int, int, int, int], chosen: Optional[Tuple[int, int]] = None) -> str:
    """One line: what the output is."""
    layers, heads, n, _ = source_shape

    def plural(k: int, word: str) -> str:
        return f'{k} {word}' + ('' if k == 1 else 's')
    whole = f'{plural(layers, "layer")} × {plural(heads, "head")} × {plural(n, "token")}'
    if chosen is not None:
        return (f'Attention Lens: layer={chosen[0]}, head={chosen[1]} of {whole} '
                f'({payload["dtype"]}; that head alone: the whole is over {MAX_PAYLOAD_BYTES // 2**20} MiB even in float16)')
    return f'Attention Lens: {whole} ({payload["dtype"]})'
