"""Titles and tokens drawn from a seeded generator of hostile text (lone and paired surrogates, C0 and
C1 controls, NUL, markup, line and paragraph separators, astral characters): each is refused with
one line naming the argument and the character, exactly when it holds a lone surrogate; otherwise
the page encodes as UTF-8, its <title> shows the text (controls as spaces), the payload and the saved
file keep it as given, and nothing else changes."""
import html
import json
import re
import struct

import numpy as np
import pytest

import attention_lens
from attention_lens import MIME

POOLS = [
    [chr(c) for c in range(0x20, 0x7f)],
    ['<', '>', '&', '"', "'", '</title>', '</script>', '<!--', '@@ATTENTION_LENS_TITLE@@'],
    [chr(c) for c in list(range(0x00, 0x20)) + list(range(0x7f, 0xa0))],
    [chr(c) for c in (0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00)],
    ['\ud83d\ude00', '\udbff\udfff'],  # pairs written as two code points
    ['\U0001F600', '\U00010000', '\u2028', '\u2029', '\ufeff', '\ufffe', 'é', '中'],
]


def hostile_text(rng, longest=12):
    return ''.join(str(rng.choice(POOLS[int(rng.integers(len(POOLS)))])) for _ in range(int(rng.integers(0, longest))))


def lone_surrogate(s):
    """The index of the first surrogate not in a high-low pair, or None (an oracle written apart from text.py)."""
    i = 0
    while i < len(s):
        if '\ud800' <= s[i] <= '\udbff' and i + 1 < len(s) and '\udc00' <= s[i + 1] <= '\udfff':
            i += 2
        elif '\ud800' <= s[i] <= '\udfff':
            return i
        else:
            i += 1
    return None


def joined(s):
    """Pairs written as two code points, as the one character they stand for."""
    return re.sub('[\ud800-\udbff][\udc00-\udfff]', lambda m: chr(0x10000 + ((ord(m.group()[0]) - 0xD800) << 10) + ord(m.group()[1]) - 0xDC00), s)


@pytest.mark.parametrize('seed', range(5))
def test_titles(seed):
    rng = np.random.default_rng(seed)
    a = np.full((1, 1, 2, 2), 0.5, dtype=np.float32)
    for _ in range(60):
        title = hostile_text(rng)
        at = lone_surrogate(title)
        if at is not None:
            with pytest.raises(ValueError, match=rf'^title: a lone surrogate U\+{ord(title[at]):04X} at character {at}, which UTF-8 cannot write'):
                attention_lens.show(a, ['a', 'b'], title=title)
            continue
        v = attention_lens.show(a, ['a', 'b'], title=title)
        page = v.html()
        page.encode('utf-8')
        shown = re.search(r'<title>(.*?)</title>', page, re.S).group(1)
        assert html.unescape(shown) == 'Attention: ' + re.sub('[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]', ' ', joined(title))
        assert not re.search('[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f<]', shown), 'no control or markup in the tab'
        assert v.payload['title'] == joined(title)
        inline = re.search(r'<script type="application/json" id="attention-payload">(.*?)</script>', page, re.S).group(1)
        assert inline.isascii() and '<' not in inline
        assert json.loads(inline) == v.payload
        assert page.count('<script') == 2


@pytest.mark.parametrize('seed', range(5))
def test_tokens(seed, tmp_path):
    rng = np.random.default_rng(100 + seed)
    for k in range(30):
        n = int(rng.integers(1, 5))
        toks = [hostile_text(rng, 6) for _ in range(n)]
        a = np.full((1, 1, n, n), 1 / n, dtype=np.float32)
        path = tmp_path / f'{k}.safetensors'
        bad = next(((i, lone_surrogate(t)) for i, t in enumerate(toks) if lone_surrogate(t) is not None), None)
        if bad is not None:
            i, at = bad
            pattern = rf'^tokens\[{i}\]: a lone surrogate U\+{ord(toks[i][at]):04X} at character {at}'
            with pytest.raises(ValueError, match=pattern):
                attention_lens.show(a, toks)
            with pytest.raises(ValueError, match=pattern):
                attention_lens.save(str(path), a, toks)
            assert not path.exists()
            continue
        b = attention_lens.show(a, toks)._repr_mimebundle_()
        b['text/html'].encode('utf-8')
        assert b[MIME]['tokens'] == [joined(t) for t in toks]
        attention_lens.save(str(path), a, toks)
        raw = path.read_bytes()
        header = json.loads(raw[8:8 + struct.unpack('<Q', raw[:8])[0]].decode('utf-8'))
        assert json.loads(header['__metadata__']['tokens']) == [joined(t) for t in toks]


def token_containers(rng, n):
    """(tokens in some container, the list show() must take from it, or the words of its refusal)."""
    words = [f'w{i}' for i in range(n)]
    kinds = [
        (lambda: list(words), words),
        (lambda: tuple(words), words),
        (lambda: np.array(words), words),
        (lambda: [list(words)], words),  # a batch of one, as a tokenizer gives it
        (lambda: np.array([words]), words),
        (lambda: (w for w in words), words),
        # One token per list: n lists of one is refused, but one list of one is a batch of one.
        (lambda: [[w] for w in words], words if n == 1 else r"tokens\[0\] is list \['w0'\], not a string"),
        (lambda: [i for i in range(n)], r'tokens\[0\] is int 0, not a string'),
        (lambda: [w.encode() for w in words], r"tokens\[0\] is bytes b'w0', not a string"),
        (lambda: [None] + words[1:], r'tokens\[0\] is NoneType None, not a string'),
        (lambda: [list(words), list(words)], r"tokens\[0\] is list \['w0'"),
        (lambda: ' '.join(words), r'not one string'),
        (lambda: 7, r'tokens must be a list of \d+ strings, got int'),
    ]
    return kinds[int(rng.integers(len(kinds)))]


@pytest.mark.parametrize('seed', range(4))
def test_token_containers(seed):
    # Nested lists were drawn as "['The']": str() of anything was taken for a token.
    rng = np.random.default_rng(200 + seed)
    for _ in range(40):
        n = int(rng.integers(1, 5))
        make, want = token_containers(rng, n)
        a = np.full((n, n), 1 / n)
        if isinstance(want, str):
            with pytest.raises(ValueError, match=want):
                attention_lens.show(a, make())
        else:
            assert attention_lens.show(a, make()).payload['tokens'] == want
