"""The MIME payload a notebook output carries, application/vnd.attention-lens.v1+json:
{ "tokens", "shape": [layers, heads, n, n], "dtype": "float32" | "float16", "data": base64 of the
little-endian values, "title"? }. The size rule (MAX_PAYLOAD_BYTES, 32 MiB of values):
  1. every head in float32 when that fits (float16 input stays float16: it is exact as it is);
  2. else every head in float16, when that fits and every weight is within float16's range;
  3. else the chosen head alone, shape [1, 1, n, n], at full precision (float32; float16 input as it is):
     `layer=` and `head=` when given, else the most focused head, the one whose queries give their
     strongest key the most weight on average (the first such head on a tie); the title names it.
The extension's reader of this payload is src/protocol/attention-payload.ts.
"""
import base64

import numpy as np

MIME = 'application/vnd.attention-lens.v1+json'

#: The most bytes of values a payload carries (32 MiB), the line of the size rule above.
MAX_PAYLOAD_BYTES = 32 * 1024 * 1024

#: The longest title the extension keeps (src/protocol/attention-payload.ts), in UTF-16 code units as JavaScript counts.
MAX_TITLE_CHARS = 1000

_FLOAT16_MAX = 65504.0


def most_focused_head(whole):
    """(layer, head) whose queries give their strongest key the most weight on average; the first on a tie."""
    best, at = -np.inf, (0, 0)
    for l in range(whole.shape[0]):
        for h in range(whole.shape[1]):
            score = float(np.asarray(whole[l, h], dtype=np.float64).max(axis=1).mean())
            if score > best:
                best, at = score, (l, h)
    return at


def encode(values):
    """Base64 of the values' little-endian bytes."""
    return base64.b64encode(np.ascontiguousarray(values, dtype=values.dtype.newbyteorder('<')).tobytes()).decode('ascii')


def build(whole, tokens, title=None, layer=None, head=None):
    """(payload, chosen): the payload of a checked [layers, heads, n, n] array (forms.stacked) and its tokens, by
    the size rule, and the (layer, head) it holds alone, or None when it holds every head."""
    layers, heads, n, _ = whole.shape
    count = layers * heads * n * n
    half_input = whole.dtype == np.float16
    for name, value, limit in (('layer', layer, layers), ('head', head, heads)):
        if value is not None and not (isinstance(value, (int, np.integer)) and 0 <= value < limit):
            raise ValueError(f'{name}={value!r}, but the attention has {limit} {name}s, numbered from 0')
    chosen = None
    if count * (2 if half_input else 4) <= MAX_PAYLOAD_BYTES:
        values = whole
    elif count * 2 <= MAX_PAYLOAD_BYTES and float(np.abs(whole).max()) <= _FLOAT16_MAX:
        values = whole.astype(np.float16)
    else:
        if layer is None or head is None:
            focused = most_focused_head(whole)
            layer = focused[0] if layer is None else layer
            head = focused[1] if head is None else head
        chosen = (int(layer), int(head))
        values = whole[chosen[0], chosen[1]][None, None]
    payload = {
        'tokens': list(tokens),
        'shape': [int(d) for d in values.shape],
        'dtype': 'float16' if values.dtype == np.float16 else 'float32',
        'data': encode(values),
    }
    if chosen is not None:
        what = f'layer={chosen[0]}, head={chosen[1]} of {layers} layers × {heads} heads (the whole is over {MAX_PAYLOAD_BYTES // 2**20} MiB)'
        payload['title'] = f'{title} · {what}' if title else what
    elif title is not None:
        payload['title'] = str(title)
    if 'title' in payload:
        length = len(payload['title'].encode('utf-16-le', 'surrogatepass')) // 2
        if length > MAX_TITLE_CHARS:
            beside = ' with the chosen head\'s name' if chosen is not None else ''
            raise ValueError(f'the title is {length} characters{beside}; at most {MAX_TITLE_CHARS} (the extension refuses a longer one)')
    return payload, chosen


def summary(payload, source_shape, chosen=None):
    """One line: what the output is."""
    layers, heads, n, _ = source_shape
    plural = lambda k, word: f'{k} {word}' + ('' if k == 1 else 's')
    whole = f'{plural(layers, "layer")} × {plural(heads, "head")} × {plural(n, "token")}'
    if chosen is not None:
        return (f'Attention Lens: layer={chosen[0]}, head={chosen[1]} of {whole} '
                f'({payload["dtype"]}; that head alone: the whole is over {MAX_PAYLOAD_BYTES // 2**20} MiB even in float16)')
    return f'Attention Lens: {whole} ({payload["dtype"]})'
