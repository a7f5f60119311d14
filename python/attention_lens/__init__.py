"""Attention Lens in a notebook: `attention_lens.show(attention, tokens)` draws a model's attention
(the grid of every head, one head, the finder, the rollout) in the output cell, offline, and
`attention_lens.save(path, attention, tokens)` writes the .safetensors the VS Code model editor opens.

`attention`: numpy or torch (torch is never imported by this package: a tensor is known by its type),
as [layers, heads, n, n], [heads, n, n] or [n, n], Hugging Face's `out.attentions` (a tuple of
[1, heads, n, n] per layer) or TransformerLens' `[cache["pattern", l] for l in range(n_layers)]`.
Real numbers only (complex, meta and sparse tensors are refused), finite.
`tokens`: n strings (or a batch of one list of n strings), text UTF-8 can write. A ValueError says
what is wrong otherwise, naming the argument.

The output is a MIME bundle: application/vnd.attention-lens.v1+json (the VS Code renderer of the
Attention Lens extension), text/html (one self-contained page for JupyterLab, Colab and GitHub) and
text/plain (one line). The size rule (payload.py; MAX_PAYLOAD_BYTES = 32 MiB of values): every
head in float32 (float16 input stays float16); past 32 MiB every head in float16; past that too, one
head [1, 1, n, n] at full precision: show(..., layer=, head=) names it, else the most focused head
(whose queries give their strongest key the most weight on average). Only what is shown is
converted, so a lazy input of any size the readers open costs one head's memory.
"""
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np

from . import forms, payload as _payload, page as _page, safetensors as _safetensors, stream as _stream, text as _text
from .payload import MAX_PAYLOAD_BYTES, MIME

__all__ = ['show', 'save', 'AttentionView', 'MIME', 'MAX_PAYLOAD_BYTES', '__version__']
__version__ = '0.1.0'


class AttentionView:
    """What show() returns: a notebook shows it through _repr_mimebundle_."""

    shape: Tuple[int, int, int, int]
    tokens: List[str]
    payload: Dict[str, Any]
    chosen: Optional[Tuple[int, int]]

    def __init__(self, attention: Any, tokens: Any, title: Optional[object] = None,
                 layer: Optional[int] = None, head: Optional[int] = None) -> None:
        layers = forms.layers_of(attention)
        count, heads, n = forms.dims(layers)
        self.shape = (count, heads, n, n)
        self.tokens = _text.token_list(tokens, n)
        self.payload, self.chosen = _payload.build(layers, self.tokens, _text.title_text(title), layer, head)

    def text(self) -> str:
        """One line: what the output is."""
        return _payload.summary(self.payload, self.shape, self.chosen)

    def html(self) -> str:
        """The self-contained page."""
        return _page.html_page(self.payload)

    def _repr_mimebundle_(self, include: Optional[Iterable[str]] = None,
                          exclude: Optional[Iterable[str]] = None) -> Dict[str, Any]:
        makers = {MIME: lambda: self.payload, 'text/html': self.html, 'text/plain': self.text}
        wanted = [m for m in makers if (not include or m in include) and not (exclude and m in exclude)]
        return {m: makers[m]() for m in wanted}

    def __repr__(self) -> str:
        return self.text()


def show(attention: Any, tokens: Any, title: Optional[object] = None,
         layer: Optional[int] = None, head: Optional[int] = None) -> AttentionView:
    """The attention drawn in the output cell (see the module's docstring for the forms and the size rule)."""
    return AttentionView(attention, tokens, title, layer, head)


def save(path: str, attention: Any, tokens: Any = None, dtype: Any = None,
         shape: Optional[Tuple[int, int, int]] = None) -> None:
    """Writes `attention` (any form show() takes) to `path` as the .safetensors the model editor opens,
    up to 32,768 tokens (the editor draws such a head as a map).
    Too big to hold? Give the heads one at a time: `attention` a callable `heads(layer, head)` returning
    that head's [n, n], or an iterator of heads (layer-major), with `shape=(layers, heads, n)`: only one
    head is held at a time (stream.py), each checked as it is written (a failure leaves no file).
    dtype: None keeps float16 as it is and writes anything else as float32; 'float16' refuses a weight
    past float16's range (65504) rather than writing infinity.
    The attention is checked as show() checks it (finite, every layer alike, not empty, within what the
    editor opens) before the file is opened: a ValueError, and no file, rather than a file the editor refuses."""
    try:
        kind = None if dtype is None else np.dtype(dtype)
    except TypeError:
        kind = None
        dtype_ok = False
    else:
        dtype_ok = kind is None or kind in (np.float16, np.float32, np.float64)
    if not dtype_ok:
        raise ValueError(f'dtype={dtype!r}: save writes float16, float32 or float64')
    if _stream.is_streamed(attention):
        _, _, n = _stream.checked_shape(shape)
        _stream.write_heads(path, attention, shape, None if tokens is None else _text.token_list(tokens, n), dtype)
        return
    if shape is not None:
        raise ValueError('shape= is for heads given one at a time (a callable or an iterator); an array has its own')
    layers = forms.layers_of(attention)
    _, _, n = forms.dims(layers, forms.MAX_FILE_TOKENS)
    names = None if tokens is None else _text.token_list(tokens, n)
    _safetensors.write(path, layers, names, dtype)
