"""The rotary decoders (Llama with rope_scaling, Mistral's sliding window, Qwen2's and Qwen3's window
layers, Qwen3's q/k norms) in PyTorch, float64 by default, written from the architectures' published
definitions (no transformers library), and the tiny checkpoints to test the runner against: each a
family's real published config.json keys with its sizes shrunk.

  RoPE       f_i = 1 / theta^(2i/d), i < d/2 (d = head_dim); rotate_half on the two halves of a head
    linear   f_i / factor
    dynamic  for n > L0 = max_position_embeddings: theta' = theta ((factor n / L0) - (factor - 1))^(d/(d-2))
    llama3   wavelength w = 2 pi / f_i: w < L0/high kept; w > L0/low: f_i / factor; between, with
             s = (L0 / w - low) / (high - low): (1 - s) f_i / factor + s f_i   (L0 = original_max_position_embeddings)
  layer      h = RMSNorm(x); q, k, v = h W^T (+ b: qwen2); qwen3: q, k = RMSNorm over each head's d (q_norm, k_norm);
             RoPE(q, k); a = softmax(q k^T / sqrt(d) over the keys the layer sees) v; x += a W_o^T;
             x += down(silu(gate(RMSNorm(x))) * up(RMSNorm(x)))
  keys seen  causal j <= i; sliding W: i - W < j <= i (mistral: every layer; qwen: use_sliding_window,
             then layer_types, else layers >= max_window_layers)

  python3 rotary.py generate ROOT        writes ROOT/<case>/ for every case; prints the cases as JSON
  python3 rotary.py forward REQUEST.json  REQUEST = [{ "dir", "ids" }]; prints
      [{ "attention": [layer][head][query][key], "probs": [vocab] }] in float64
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from torch_forward import load, serve, write_case  # noqa: E402 (test/reference/torch_forward.py)

VOCAB = 300


def handles(c):
    """Whether a config is one this module computes and torch_forward.py's own forward does not."""
    scaled = any(isinstance(c.get(k), dict) and (c[k].get('rope_type') or c[k].get('type') or 'default') != 'default'
                 for k in ('rope_scaling', 'rope_parameters'))
    return c.get('model_type') in ('mistral', 'qwen3') or scaled or bool(c.get('use_sliding_window')) or bool(c.get('layer_types'))


def frequencies(c, d, n):
    """The d/2 inverse frequencies a run of n tokens rotates by, float64."""
    theta = c.get('rope_theta') or (c.get('rope_parameters') or {}).get('rope_theta') or 10000.0
    scaling = c.get('rope_scaling') or c.get('rope_parameters') or {}
    kind = scaling.get('rope_type') or scaling.get('type') or 'default'
    i = np.arange(d // 2, dtype=np.float64)
    if kind == 'dynamic':
        L0 = c.get('max_position_embeddings', 2048)
        if n > L0:
            f = scaling['factor']
            theta = theta * ((f * n / L0) - (f - 1)) ** (d / (d - 2))
    f = 1.0 / theta ** (2 * i / d)
    if kind == 'linear':
        return f / scaling['factor']
    if kind == 'llama3':
        L0, low, high, factor = (scaling['original_max_position_embeddings'], scaling['low_freq_factor'],
                                 scaling['high_freq_factor'], scaling['factor'])
        out = np.empty_like(f)
        for t, ft in enumerate(f):
            w = 2 * math.pi / ft
            if w < L0 / high:
                out[t] = ft
            elif w > L0 / low:
                out[t] = ft / factor
            else:
                s = (L0 / w - low) / (high - low)
                out[t] = (1 - s) * ft / factor + s * ft
        return out
    assert kind in ('default', 'dynamic'), kind
    return f


def windows(c):
    """Per layer, the window W of keys it sees (None: every earlier key)."""
    L = c['num_hidden_layers']
    if c['model_type'] == 'mistral':
        return [c.get('sliding_window', 4096)] * L
    if c['model_type'] in ('qwen2', 'qwen3'):
        W = c.get('sliding_window', 4096) if c.get('use_sliding_window') else None
        if c.get('layer_types'):
            return [W if t == 'sliding_attention' else None for t in c['layer_types']]
        first = c.get('max_window_layers', 28)
        return [W if W is not None and i >= first else None for i in range(L)]
    return [None] * L


def forward(c, w, ids, dtype=None):
    """Every layer's attention weights [layers][heads, n, n] and the last position's softmax."""
    import torch
    dtype = dtype or torch.float64
    w = {k: v.to(dtype) for k, v in w.items()}
    n = len(ids)
    E, H = c['hidden_size'], c['num_attention_heads']
    KV = c.get('num_key_value_heads') or H
    D = c.get('head_dim') or E // H
    eps = c.get('rms_norm_eps', 1e-6)
    rms = lambda x, weight: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight
    angles = torch.arange(n, dtype=dtype)[:, None] * torch.tensor(frequencies(c, D, n), dtype=dtype)[None, :]
    angles = torch.cat([angles, angles], dim=-1)
    cos, sin = angles.cos(), angles.sin()

    def rope(t):  # [heads, n, D]
        half = torch.cat([-t[..., D // 2:], t[..., :D // 2]], dim=-1)
        return t * cos + half * sin

    linear = lambda x, name: x @ w[name + '.weight'].T + (w[name + '.bias'] if name + '.bias' in w else 0)
    i_, j_ = torch.arange(n)[:, None], torch.arange(n)[None, :]
    attention = []
    x = w['model.embed_tokens.weight'][torch.tensor(ids, dtype=torch.long)]
    for layer, W in enumerate(windows(c)):
        l = f'model.layers.{layer}.'
        h = rms(x, w[l + 'input_layernorm.weight'])
        q = linear(h, l + 'self_attn.q_proj').view(n, H, D).transpose(0, 1)
        k = linear(h, l + 'self_attn.k_proj').view(n, KV, D).transpose(0, 1)
        v = linear(h, l + 'self_attn.v_proj').view(n, KV, D).transpose(0, 1)
        if c['model_type'] == 'qwen3':
            q, k = rms(q, w[l + 'self_attn.q_norm.weight']), rms(k, w[l + 'self_attn.k_norm.weight'])
        q, k = rope(q), rope(k)
        k, v = k.repeat_interleave(H // KV, dim=0), v.repeat_interleave(H // KV, dim=0)
        seen = (j_ <= i_) if W is None else ((j_ <= i_) & (j_ > i_ - W))
        scores = (q @ k.transpose(1, 2) / math.sqrt(D)).masked_fill(~seen, float('-inf'))
        weights = torch.softmax(scores, dim=-1)
        attention.append(weights)
        x = x + linear((weights @ v).transpose(0, 1).reshape(n, H * D), l + 'self_attn.o_proj')
        h = rms(x, w[l + 'post_attention_layernorm.weight'])
        x = x + linear(torch.nn.functional.silu(linear(h, l + 'mlp.gate_proj')) * linear(h, l + 'mlp.up_proj'), l + 'mlp.down_proj')
    x = rms(x, w['model.norm.weight'])
    head = w['model.embed_tokens.weight'] if c.get('tie_word_embeddings', False) else w['lm_head.weight']
    return attention, torch.softmax(x[-1] @ head.T, dim=-1)

# ---------------------------------------------------------------- tiny checkpoints, real config keys

# The published configs (Hugging Face hub, config.json), every key as published but the sizes, which
# are shrunk: hidden_size, heads, intermediate_size, layers, vocab_size, and where a test needs a text
# longer than it, max_position_embeddings (dynamic) or sliding_window.
LLAMA_3_2_1B = {
    'architectures': ['LlamaForCausalLM'], 'attention_bias': False, 'attention_dropout': 0.0, 'bos_token_id': 128000,
    'eos_token_id': 128001, 'head_dim': 64, 'hidden_act': 'silu', 'hidden_size': 2048, 'initializer_range': 0.02,
    'intermediate_size': 8192, 'max_position_embeddings': 131072, 'mlp_bias': False, 'model_type': 'llama',
    'num_attention_heads': 32, 'num_hidden_layers': 16, 'num_key_value_heads': 8, 'pretraining_tp': 1, 'rms_norm_eps': 1e-05,
    'rope_scaling': {'factor': 32.0, 'high_freq_factor': 4.0, 'low_freq_factor': 1.0, 'original_max_position_embeddings': 8192,
                     'rope_type': 'llama3'},
    'rope_theta': 500000.0, 'tie_word_embeddings': True, 'torch_dtype': 'bfloat16', 'transformers_version': '4.45.0.dev0',
    'use_cache': True, 'vocab_size': 128256,
}
# Vicuna v1.5 16k (a Llama 2 fine-tune): linear scaling, in the older "type" spelling.
VICUNA_16K = {
    'architectures': ['LlamaForCausalLM'], 'bos_token_id': 1, 'eos_token_id': 2, 'hidden_act': 'silu', 'hidden_size': 4096,
    'initializer_range': 0.02, 'intermediate_size': 11008, 'max_position_embeddings': 4096, 'model_type': 'llama',
    'num_attention_heads': 32, 'num_hidden_layers': 32, 'num_key_value_heads': 32, 'pad_token_id': 0, 'pretraining_tp': 1,
    'rms_norm_eps': 1e-05, 'rope_scaling': {'factor': 4.0, 'type': 'linear'}, 'tie_word_embeddings': False,
    'torch_dtype': 'float16', 'transformers_version': '4.31.0', 'use_cache': True, 'vocab_size': 32000,
}
MISTRAL_7B = {
    'architectures': ['MistralForCausalLM'], 'bos_token_id': 1, 'eos_token_id': 2, 'hidden_act': 'silu', 'hidden_size': 4096,
    'initializer_range': 0.02, 'intermediate_size': 14336, 'max_position_embeddings': 32768, 'model_type': 'mistral',
    'num_attention_heads': 32, 'num_hidden_layers': 32, 'num_key_value_heads': 8, 'rms_norm_eps': 1e-05, 'rope_theta': 10000.0,
    'sliding_window': 4096, 'tie_word_embeddings': False, 'torch_dtype': 'bfloat16', 'transformers_version': '4.34.0.dev0',
    'use_cache': True, 'vocab_size': 32000,
}
QWEN2_5_0_5B = {
    'architectures': ['Qwen2ForCausalLM'], 'attention_dropout': 0.0, 'bos_token_id': 151643, 'eos_token_id': 151643,
    'hidden_act': 'silu', 'hidden_size': 896, 'initializer_range': 0.02, 'intermediate_size': 4864,
    'max_position_embeddings': 32768, 'max_window_layers': 24, 'model_type': 'qwen2', 'num_attention_heads': 14,
    'num_hidden_layers': 24, 'num_key_value_heads': 2, 'rms_norm_eps': 1e-06, 'rope_theta': 1000000.0, 'sliding_window': 32768,
    'tie_word_embeddings': True, 'torch_dtype': 'bfloat16', 'transformers_version': '4.40.1', 'use_cache': True,
    'use_mrope': False, 'use_sliding_window': False, 'vocab_size': 151936,
}
QWEN3_0_6B = {
    'architectures': ['Qwen3ForCausalLM'], 'attention_bias': False, 'attention_dropout': 0.0, 'bos_token_id': 151643,
    'eos_token_id': 151645, 'head_dim': 128, 'hidden_act': 'silu', 'hidden_size': 1024, 'initializer_range': 0.02,
    'intermediate_size': 3072, 'max_position_embeddings': 40960, 'max_window_layers': 28, 'model_type': 'qwen3',
    'num_attention_heads': 16, 'num_hidden_layers': 28, 'num_key_value_heads': 8, 'rms_norm_eps': 1e-06, 'rope_scaling': None,
    'rope_theta': 1000000, 'sliding_window': None, 'tie_word_embeddings': True, 'torch_dtype': 'bfloat16',
    'transformers_version': '4.51.0', 'use_cache': True, 'use_sliding_window': False, 'vocab_size': 151936,
}
SHRUNK = {'hidden_size': 32, 'intermediate_size': 48, 'num_hidden_layers': 2, 'vocab_size': VOCAB}


def cases():
    """name → config; the sizes shrunk, every other key as published (or as the case says)."""
    return {
        # head_dim 16 at theta 500,000 and L0 8192: frequencies 0-3 kept, 4 blended, 5-7 divided by 32.
        'llama3-scaled': {**LLAMA_3_2_1B, **SHRUNK, 'num_attention_heads': 4, 'num_key_value_heads': 2, 'head_dim': 16},
        'llama-linear': {**VICUNA_16K, **SHRUNK, 'num_attention_heads': 4, 'num_key_value_heads': 4},
        # max_position_embeddings 16: the test's text of 20+ tokens runs past it, where dynamic scales.
        'llama-dynamic': {**VICUNA_16K, **SHRUNK, 'num_attention_heads': 4, 'num_key_value_heads': 4,
                          'max_position_embeddings': 16, 'rope_scaling': {'factor': 2.0, 'type': 'dynamic'}},
        'mistral-window': {**MISTRAL_7B, **SHRUNK, 'num_attention_heads': 4, 'num_key_value_heads': 2, 'sliding_window': 5},
        'qwen2.5': {**QWEN2_5_0_5B, **SHRUNK, 'num_attention_heads': 4, 'num_key_value_heads': 2, 'max_window_layers': 2},
        # use_sliding_window on: layer 0 full, layers 1 and 2 (>= max_window_layers 1) slide over 6 keys.
        'qwen2-window': {**QWEN2_5_0_5B, **SHRUNK, 'num_hidden_layers': 3, 'num_attention_heads': 4, 'num_key_value_heads': 2,
                         'use_sliding_window': True, 'sliding_window': 6, 'max_window_layers': 1},
        # head_dim 16 given beside hidden 32 and 4 heads (8 each otherwise), as Qwen3 gives 128 beside 1024 / 16.
        'qwen3': {**QWEN3_0_6B, **SHRUNK, 'num_attention_heads': 4, 'num_key_value_heads': 2, 'head_dim': 16, 'max_window_layers': 2},
        'qwen3-layer-types': {**QWEN3_0_6B, **SHRUNK, 'num_hidden_layers': 3, 'num_attention_heads': 4, 'num_key_value_heads': 2,
                              'head_dim': 16, 'use_sliding_window': True, 'sliding_window': 4,
                              'layer_types': ['sliding_attention', 'full_attention', 'sliding_attention']},
    }


def tensors(rng, c):
    E, F, V, L = c['hidden_size'], c['intermediate_size'], c['vocab_size'], c['num_hidden_layers']
    H, KV = c['num_attention_heads'], c.get('num_key_value_heads') or c['num_attention_heads']
    D = c.get('head_dim') or E // H
    r = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    t = {'model.embed_tokens.weight': r(V, E, s=1.0), 'model.norm.weight': 1 + r(E, s=0.1)}
    if not c.get('tie_word_embeddings', False):
        t['lm_head.weight'] = r(V, E)
    for i in range(L):
        p = f'model.layers.{i}.'
        t.update({p + 'input_layernorm.weight': 1 + r(E, s=0.1), p + 'post_attention_layernorm.weight': 1 + r(E, s=0.1),
                  p + 'self_attn.q_proj.weight': r(H * D, E, s=0.5), p + 'self_attn.k_proj.weight': r(KV * D, E, s=0.5),
                  p + 'self_attn.v_proj.weight': r(KV * D, E), p + 'self_attn.o_proj.weight': r(E, H * D),
                  p + 'mlp.gate_proj.weight': r(F, E), p + 'mlp.up_proj.weight': r(F, E), p + 'mlp.down_proj.weight': r(E, F)})
        if c['model_type'] == 'qwen2':
            t.update({p + 'self_attn.q_proj.bias': r(H * D, s=0.2), p + 'self_attn.k_proj.bias': r(KV * D, s=0.2),
                      p + 'self_attn.v_proj.bias': r(KV * D, s=0.2)})
        if c['model_type'] == 'qwen3':
            # Far from 1, so a run that skipped the norms (or normed over the wrong width) would differ.
            t.update({p + 'self_attn.q_norm.weight': 1 + r(D, s=0.5), p + 'self_attn.k_norm.weight': 1 + r(D, s=0.5)})
    return t


def generate(root):
    rng = np.random.default_rng(31)
    all_cases = cases()
    for name, config in all_cases.items():
        write_case(os.path.join(root, name), config, tensors(rng, config), 'F32')
    print(json.dumps(sorted(all_cases)))


def main():
    serve(generate, lambda r: forward(*load(r['dir']), r['ids']))


if __name__ == '__main__':
    main()
