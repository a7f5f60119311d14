"""BERT, RoBERTa and DistilBERT in PyTorch (float64 by default), written from the architectures'
published definitions (no transformers library), to test the runner's encoder block against.

  embeddings  x = LayerNorm(word[id] + position[p] + token_type[0])  (DistilBERT: no token type)
              p = 0, 1, 2, …; RoBERTa: p = pad + (number of non-pad ids up to and including this one),
              a pad id taking p = pad
  each layer  a = softmax(q kᵀ / √d) v over every key (no mask), heads side by side, then W_O
              h = LayerNorm(x + a);  x = LayerNorm(h + W_2 gelu(W_1 h))      (exact erf GELU)
  MLM head    t = LayerNorm(gelu(W_t x + b_t));  logits = t · word_embeddingsᵀ + bias

  python3 bert.py forward REQUEST.json   REQUEST = [{ "dir", "ids", "at" }]; prints
      [{ "attention": [layer][head][query][key], "guesses": [[vocab] per position of "at"] or null }]
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from torch_forward import read_weights  # noqa: E402 (test/reference/torch_forward.py)

ENCODERS = ('bert', 'roberta', 'distilbert')


def layer_norm_key(w, base):
    """A LayerNorm's (weight, bias) keys: .weight/.bias, or TensorFlow's .gamma/.beta."""
    return (base + '.gamma', base + '.beta') if base + '.gamma' in w and base + '.weight' not in w else (base + '.weight', base + '.bias')


def forward(c, w, ids, at=None, dtype=None):
    """Every layer's attention [heads, n, n] and, when the checkpoint has an MLM head and `at` is
    given, the softmax of the logits at each position of `at`."""
    import torch
    dtype = dtype or torch.float64
    w = {k: v.to(dtype) for k, v in w.items()}
    kind = c['model_type']
    distil = kind == 'distilbert'
    E = c['dim'] if distil else c['hidden_size']
    H = c['n_heads'] if distil else c['num_attention_heads']
    L = c['n_layers'] if distil else c['num_hidden_layers']
    D = E // H
    eps = 1e-12 if distil else c.get('layer_norm_eps', 1e-12)
    prefix = {'bert': 'bert.', 'roberta': 'roberta.', 'distilbert': 'distilbert.'}[kind]
    if prefix + 'embeddings.word_embeddings.weight' not in w:
        prefix = ''

    def ln(x, base):
        weight, bias = layer_norm_key(w, base)
        return torch.nn.functional.layer_norm(x, (E,), w[weight], w[bias], eps)

    def dense(x, base):
        return x @ w[base + '.weight'].T + w[base + '.bias']

    gelu = torch.nn.functional.gelu  # the exact form, 0.5 x (1 + erf(x / √2))
    ids_t = torch.tensor(ids, dtype=torch.long)
    n = len(ids)
    if kind == 'roberta':
        pad = c.get('pad_token_id', 1)
        keep = (ids_t != pad).long()
        positions = torch.cumsum(keep, 0) * keep + pad
    else:
        positions = torch.arange(n)
    emb = prefix + 'embeddings.'
    x = w[emb + 'word_embeddings.weight'][ids_t] + w[emb + 'position_embeddings.weight'][positions]
    if not distil:
        x = x + w[emb + 'token_type_embeddings.weight'][0]
    x = ln(x, emb + 'LayerNorm')
    attention = []
    for i in range(L):
        if distil:
            l = f'{prefix}transformer.layer.{i}.'
            q_, k_, v_, o_ = (l + 'attention.' + s for s in ('q_lin', 'k_lin', 'v_lin', 'out_lin'))
            n1, f1, f2, n2 = l + 'sa_layer_norm', l + 'ffn.lin1', l + 'ffn.lin2', l + 'output_layer_norm'
        else:
            l = f'{prefix}encoder.layer.{i}.'
            q_, k_, v_ = (l + 'attention.self.' + s for s in ('query', 'key', 'value'))
            o_, n1 = l + 'attention.output.dense', l + 'attention.output.LayerNorm'
            f1, f2, n2 = l + 'intermediate.dense', l + 'output.dense', l + 'output.LayerNorm'
        heads = lambda t: t.view(n, H, D).transpose(0, 1)
        q, k, v = heads(dense(x, q_)), heads(dense(x, k_)), heads(dense(x, v_))
        weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(D), dim=-1)
        attention.append(weights)
        mixed = (weights @ v).transpose(0, 1).reshape(n, E)
        h = ln(x + dense(mixed, o_), n1)
        x = ln(h + dense(gelu(dense(h, f1)), f2), n2)
    head = {'bert': ('cls.predictions.transform.dense', 'cls.predictions.transform.LayerNorm', 'cls.predictions.bias'),
            'roberta': ('lm_head.dense', 'lm_head.layer_norm', 'lm_head.bias'),
            'distilbert': ('vocab_transform', 'vocab_layer_norm', 'vocab_projector.bias')}[kind]
    if at is None or prefix == '' or head[0] + '.weight' not in w:
        return attention, None
    t = ln(gelu(dense(x[list(at)], head[0])), head[1])
    logits = t @ w[emb + 'word_embeddings.weight'].T + w[head[2]]
    return attention, torch.softmax(logits, dim=-1)


def main():
    import numpy as np
    import torch
    if sys.argv[1] != 'forward':
        raise SystemExit(f'unknown command {sys.argv[1]}')
    with open(sys.argv[2]) as f:
        request = json.load(f)
    out = []
    for r in request:
        with open(os.path.join(r['dir'], 'config.json')) as f:
            c = json.load(f)
        w = {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in read_weights(r['dir']).items()}
        attention, guesses = forward(c, w, r['ids'], r.get('at'))
        out.append({'attention': [a.tolist() for a in attention], 'guesses': None if guesses is None else guesses.tolist()})
    print(json.dumps(out))


if __name__ == '__main__':
    main()
