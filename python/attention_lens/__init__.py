"""Attention Lens in a notebook: `attention_lens.show(attention, tokens)` draws a model's attention
(the grid of every head, one head, the finder, the rollout) in the output cell, offline, and
`attention_lens.save(path, attention, tokens)` writes the .safetensors the VS Code model editor opens.

`attention`: numpy or torch (torch is never imported by this package: a tensor is known by its type),
as [layers, heads, n, n], [heads, n, n] or [n, n], Hugging Face's `out.attentions` (a tuple of
[1, heads, n, n] per layer) or TransformerLens' `[cache["pattern", l] for l in range(n_layers)]`.
`tokens`: n strings. The values must be finite; a ValueError says what is wrong otherwise.

The output is a MIME bundle: application/vnd.attention-lens.v1+json (the VS Code renderer of the
Attention Lens extension), text/html (one self-contained page for JupyterLab, Colab and GitHub) and
text/plain (one line). The size rule (payload.py; MAX_PAYLOAD_BYTES = 32 MiB of values): every
head in float32 (float16 input stays float16); past 32 MiB every head in float16; past that too, one
head [1, 1, n, n] at full precision: show(..., layer=, head=) names it, else the most focused head
(whose queries give their strongest key the most weight on average).
"""
import numpy as np

from . import forms, payload as _payload, page as _page, safetensors as _safetensors
from .payload import MAX_PAYLOAD_BYTES, MIME

__all__ = ['show', 'save', 'AttentionView', 'MIME', 'MAX_PAYLOAD_BYTES']
__version__ = '0.1.0'


class AttentionView:
    """What show() returns: a notebook shows it through _repr_mimebundle_."""

    def __init__(self, attention, tokens, title=None, layer=None, head=None):
        whole = forms.stacked(attention)
        self.shape = tuple(int(d) for d in whole.shape)
        self.tokens = forms.token_list(tokens, self.shape[-1])
        self.payload, self.chosen = _payload.build(whole, self.tokens, title, layer, head)

    def text(self):
        return _payload.summary(self.payload, self.shape, self.chosen)

    def html(self):
        return _page.html_page(self.payload)

    def _repr_mimebundle_(self, include=None, exclude=None):
        makers = {MIME: lambda: self.payload, 'text/html': self.html, 'text/plain': self.text}
        wanted = [m for m in makers if (not include or m in include) and not (exclude and m in exclude)]
        return {m: makers[m]() for m in wanted}

    def __repr__(self):
        return self.text()


def show(attention, tokens, title=None, layer=None, head=None):
    """The attention drawn in the output cell (see the module's docstring for the forms and the size rule)."""
    return AttentionView(attention, tokens, title, layer, head)


def save(path, attention, tokens=None, dtype=None):
    """Writes `attention` (any form show() takes) to `path` as the .safetensors the model editor opens.
    dtype: None keeps float16 as it is and writes anything else as float32.
    The attention is checked as show() checks it (finite, every layer alike, not empty, within what the
    editor opens): a ValueError, and no file, rather than a file the editor refuses."""
    if dtype is not None and np.dtype(dtype) not in (np.float16, np.float32, np.float64):
        raise ValueError(f'dtype={dtype!r}: save writes float16, float32 or float64')
    forms.stacked(attention)
    _safetensors.write(path, forms.layers_of(attention), tokens, dtype)
