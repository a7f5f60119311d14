"""Writes examples/attention-in-a-notebook.ipynb: a notebook whose output cell holds what
attention_lens.show() returns (the Attention Lens payload, the offline page, one line), saved in the
file, so VS Code draws it with the extension's renderer with no kernel and no model. The attention
is made by hand (2 layers x 4 heads x 8 tokens, causal): a head on the previous token, one on the
first token (a sink), one on itself, and an induction head on "The cat" repeated. The same file every
run but the page's nonce (a fresh one each time).   python3 scripts/make_notebook_example.py
"""
import json
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
sys.path.insert(0, os.path.join(ROOT, 'python'))
import attention_lens  # noqa: E402

TOKENS = ['The', 'cat', 'sat', 'on', 'the', 'mat', '.', 'The']
N = len(TOKENS)


def head(focus):
    """Causal rows: 0.7 on the key `focus(i)` gives (when it is one), the rest spread over keys 0..i."""
    a = np.zeros((N, N))
    for i in range(N):
        a[i, :i + 1] = 1.0
        j = focus(i)
        a[i] /= a[i].sum()
        if j is not None and 0 <= j <= i:
            a[i] *= 0.3
            a[i, j] += 0.7
    return a


def induction(i):
    # Query "The" (7) looks at what followed the earlier "The": "cat" (1).
    return 1 if i == 7 else i


layers = [
    [head(lambda i: max(i - 1, 0)), head(lambda i: 0), head(lambda i: i), head(lambda i: None)],
    [head(induction), head(lambda i: max(i - 1, 0)), head(lambda i: 0), head(lambda i: i // 2)],
]
attention = np.array(layers, dtype=np.float32)

bundle = attention_lens.show(attention, TOKENS, title='The cat sat on the mat')._repr_mimebundle_()
lines = lambda text: [line for line in text.splitlines(keepends=True)]
notebook = {
    'cells': [
        {'cell_type': 'markdown', 'id': 'about', 'metadata': {},
         'source': lines('# Attention in a notebook\n\nThe output below was saved in this file: VS Code draws it with the '
                         'Attention Lens renderer (grid, head, finder, rollout) with no kernel running. '
                         '**Open in Attention Lens** opens the full model editor on it.\n')},
        {'cell_type': 'code', 'execution_count': 1, 'id': 'show', 'metadata': {},
         'source': lines('import attention_lens\nattention_lens.show(attention, tokens, title="The cat sat on the mat")'),
         'outputs': [{'output_type': 'execute_result', 'execution_count': 1, 'metadata': {},
                      'data': {attention_lens.MIME: bundle[attention_lens.MIME],
                               'text/html': lines(bundle['text/html']),
                               'text/plain': [bundle['text/plain']]}}]},
    ],
    'metadata': {'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},
                 'language_info': {'name': 'python'}},
    'nbformat': 4,
    'nbformat_minor': 5,
}
with open(os.path.join(ROOT, 'examples', 'attention-in-a-notebook.ipynb'), 'w', encoding='utf-8') as f:
    json.dump(notebook, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote examples/attention-in-a-notebook.ipynb')
