"""The text/html page: the committed template filled (a fresh nonce each time, the title escaped, the
payload inline with every "<" escaped); offline (no http(s) URL, no external src or href), a strict
CSP with the nonce, the model webview's bundle inline."""
import html as html_module
import json
import re

import attention_lens
from attention_lens import MIME


def page(a, toks, **kw):
    return attention_lens.show(a, toks, **kw)._repr_mimebundle_()


def test_offline_and_strict(attention):
    html = page(attention(2, 2, 4), ['<script>alert(1)</script>', 'a', 'b', 'c'], title='</title><b>x')['text/html']
    assert not re.search(r'https?://', html), 'no URL of any kind'
    assert not re.search(r'\ssrc\s*=', html), 'nothing loaded by src'
    assert not re.search(r'<link\b', html), 'no linked resource'
    csp = html_module.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1))
    nonce = re.search(r"script-src 'nonce-([0-9a-f]{32})'", csp).group(1)
    assert csp.startswith("default-src 'none'")
    assert f"style-src 'nonce-{nonce}'" in csp
    assert len(re.findall(f'nonce="{nonce}"', html)) == 2, 'the style and the script carry the nonce'
    assert len(re.findall(r'<script\b', html)) == 2, 'the data and the bundle, nothing else'
    assert '@@ATTENTION_LENS_' not in html
    assert '&lt;/title&gt;&lt;b&gt;x' in html
    assert '<script>alert(1)' not in html


def test_the_payload_is_inline(attention):
    b = page(attention(1, 2, 3), ['a', 'b', '<c>'])
    m = re.search(r'<script type="application/json" id="attention-payload">(.*?)</script>', b['text/html'], re.S)
    assert m is not None
    assert json.loads(m.group(1)) == b[MIME]


def test_a_fresh_nonce_each_page(attention, tokens):
    v = attention_lens.show(attention(1, 1, 2), tokens(2))
    assert len({re.search(r'nonce-([0-9a-f]+)', v.html()).group(1) for _ in range(3)}) == 3


def test_the_bundle_is_there(attention, tokens):
    html = page(attention(1, 1, 2), tokens(2))['text/html']
    assert 'id="model-root"' in html
    assert len(html) > 100_000, 'the model webview bundle, inlined'


def test_control_characters_in_the_title_are_spaces_in_the_tab(attention, tokens):
    v = attention_lens.show(attention(1, 1, 2), tokens(2), title='a\x00b\x1bc\x85d\ne')
    assert '<title>Attention: a b c d\ne</title>' in v.html()
    assert v.payload['title'] == 'a\x00b\x1bc\x85d\ne', 'the payload keeps the title as given'
