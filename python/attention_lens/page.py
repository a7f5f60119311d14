"""The text/html of an output: the offline page `attn render --view model --html` makes (the model
webview's bundle and style sheet inlined, a strict Content-Security-Policy, nothing fetched), built
by scripts/build.mjs into assets/model-page.html with three slots this file fills: a fresh nonce, the
title (escaped for HTML, control characters as spaces) and the payload as JSON in a
<script type="application/json"> (ASCII only, every "<" written as \\u003c, so no token can close the
element). The page decodes the payload itself. The whole page is text UTF-8 can write: text.py refuses
a lone surrogate before a payload is made.
"""
import html
import json
import os
import re
import secrets
from typing import Any, Dict, Optional

from .text import title_for_html

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'assets', 'model-page.html')
_SLOT = re.compile('@@ATTENTION_LENS_(NONCE|TITLE|PAYLOAD)@@')
_template: Optional[str] = None


def template() -> str:
    global _template
    if _template is None:
        with open(TEMPLATE, encoding='utf-8') as f:
            _template = f.read()
    return _template


def script_json(value: Any) -> str:
    """JSON safe inside a <script> element: ASCII only (so U+2028 is escaped too), no "<" at all."""
    return json.dumps(value, ensure_ascii=True, separators=(',', ':')).replace('<', '\\u003c')


def html_page(payload: Dict[str, Any]) -> str:
    """The whole page for one payload; each slot filled in one pass, so nothing filled in is read as a slot."""
    values = {
        'NONCE': secrets.token_hex(16),
        'TITLE': html.escape(title_for_html(payload.get('title', 'attention')), quote=True),
        'PAYLOAD': script_json(payload),
    }
    return _SLOT.sub(lambda m: values[m.group(1)], template())
