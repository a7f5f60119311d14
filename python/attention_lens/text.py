"""The text show() and save() carry: the title and the tokens. Each must be text that UTF-8 can write
(the page is UTF-8, the file's header is JSON read by JavaScript), so a lone surrogate, which Python
strings can hold (bytes decoded with errors='surrogateescape') and UTF-8 cannot, is refused by name.
A surrogate pair written as two code points is joined into the one character it stands for.
"""
import re
from typing import Any, List, Optional, Sequence

import numpy as np

#: Control characters, which a page's <title> cannot show (the payload keeps them; its JSON escapes them).
_CONTROLS = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]')


def utf8_text(value: str, where: str) -> str:
    """`value` with surrogate pairs joined; a ValueError naming `where` when a lone surrogate is left."""
    try:
        return value.encode('utf-16-le', 'surrogatepass').decode('utf-16-le')
    except UnicodeDecodeError:
        at = _lone_surrogate(value)
        raise ValueError(f'{where}: a lone surrogate U+{ord(value[at]):04X} at character {at}, which UTF-8 cannot write '
                         "(decode its bytes with errors='replace')") from None


def _lone_surrogate(value: str) -> int:
    """Where the first surrogate that is not half of a high-low pair stands."""
    i = 0
    while i < len(value):
        c = ord(value[i])
        if 0xD800 <= c <= 0xDBFF and i + 1 < len(value) and 0xDC00 <= ord(value[i + 1]) <= 0xDFFF:
            i += 2
            continue
        if 0xD800 <= c <= 0xDFFF:
            return i
        i += 1
    return 0


def title_text(title: Any) -> Optional[str]:
    """The title as the payload keeps it, or None."""
    return None if title is None else utf8_text(str(title), 'title')


def title_for_html(title: str) -> str:
    """The title as a page's <title> can show it: control characters as spaces."""
    return _CONTROLS.sub(' ', title)


def token_list(tokens: Any, n: int) -> List[str]:
    """The tokens as a list of n strings: a flat list (or array) of strings, or a batch of one such list
    (what a tokenizer gives for one sequence). Anything else is a ValueError naming `tokens`."""
    if tokens is None:
        raise ValueError(f'tokens are needed: a list of {n} strings, one per query and key')
    if isinstance(tokens, (str, bytes)):
        raise ValueError('tokens must be a list of strings, one per token, not one string')
    if isinstance(tokens, np.ndarray):
        tokens = tokens.tolist()
    if not isinstance(tokens, Sequence):
        try:
            tokens = list(tokens)
        except TypeError:
            raise ValueError(f'tokens must be a list of {n} strings, got {type(tokens).__name__}') from None
    if len(tokens) == 1 and isinstance(tokens[0], (list, tuple, np.ndarray)):
        inner = tokens[0].tolist() if isinstance(tokens[0], np.ndarray) else tokens[0]
        if all(isinstance(t, str) for t in inner):
            tokens = inner  # a batch of one sequence
    out = []
    for k, t in enumerate(tokens):
        if not isinstance(t, str):
            shown = repr(t)
            shown = shown if len(shown) <= 40 else shown[:37] + '...'
            raise ValueError(f'tokens[{k}] is {type(t).__name__} {shown}, not a string: give one string per token '
                             '(a list of strings, or a batch of one such list)')
        out.append(utf8_text(str(t), f'tokens[{k}]'))
    if len(out) != n:
        raise ValueError(f'{len(out)} tokens for {n} × {n} attention')
    return out
