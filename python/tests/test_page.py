"""The text/html page: the committed template filled (a fresh nonce each time, the title escaped, the
payload inline with every "<" escaped); offline (no http(s) URL, no external src or href), a strict
CSP with the nonce, the model webview's bundle inline."""
import json
import html as html_module
import re
import unittest

from helpers import attention, tokens
import attention_lens
from attention_lens import MIME


def page(a, toks, **kw):
    return attention_lens.show(a, toks, **kw)._repr_mimebundle_()


class Page(unittest.TestCase):
    def test_offline_and_strict(self):
        b = page(attention(2, 2, 4), ['<script>alert(1)</script>', 'a', 'b', 'c'], title='</title><b>x')
        html = b['text/html']
        self.assertNotRegex(html, r'https?://', 'no URL of any kind')
        self.assertNotRegex(html, r'\ssrc\s*=', 'nothing loaded by src')
        self.assertNotRegex(html, r'<link\b', 'no linked resource')
        csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
        csp = html_module.unescape(csp)
        nonce = re.search(r"script-src 'nonce-([0-9a-f]{32})'", csp).group(1)
        self.assertTrue(csp.startswith("default-src 'none'"))
        self.assertIn(f"style-src 'nonce-{nonce}'", csp)
        self.assertEqual(len(re.findall(f'nonce="{nonce}"', html)), 2, 'the style and the script carry the nonce')
        self.assertEqual(len(re.findall(r'<script\b', html)), 2, 'the data and the bundle, nothing else')
        self.assertNotIn('@@ATTENTION_LENS_', html)
        self.assertIn('&lt;/title&gt;&lt;b&gt;x', html)
        self.assertNotIn('<script>alert(1)', html)

    def test_the_payload_is_inline(self):
        b = page(attention(1, 2, 3), ['a', 'b', '<c>'])
        html = b['text/html']
        m = re.search(r'<script type="application/json" id="attention-payload">(.*?)</script>', html, re.S)
        self.assertIsNotNone(m)
        self.assertEqual(json.loads(m.group(1)), b[MIME])

    def test_a_fresh_nonce_each_page(self):
        v = attention_lens.show(attention(1, 1, 2), tokens(2))
        nonces = {re.search(r"nonce-([0-9a-f]+)", v.html()).group(1) for _ in range(3)}
        self.assertEqual(len(nonces), 3)

    def test_the_bundle_is_there(self):
        html = page(attention(1, 1, 2), tokens(2))['text/html']
        self.assertIn('id="model-root"', html)
        self.assertGreater(len(html), 100_000, 'the model webview bundle, inlined')


if __name__ == '__main__':
    unittest.main()
