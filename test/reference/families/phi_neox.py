"""An independent forward pass of Phi-3 (model_type phi3) and GPT-NeoX / Pythia (gpt_neox) checkpoints in
PyTorch, in float64 or float32, written from the architectures' published definitions (no transformers
library), and a generator of tiny random checkpoints with the real published config keys of
Phi-3-mini-4k-instruct, pythia-70m and pythia-160m (sizes shrunk, every other key as published).

  python3 phi_neox.py generate ROOT             writes ROOT/<case>/ for every case; prints the cases as JSON
  python3 phi_neox.py forward REQUEST.json      REQUEST = [{ "dir", "ids", "dtype": "float64" | "float32" }]; prints
                                                [{ "attention": [layer][head][query][key], "probs": [vocab] }]

Phi-3: RMSNorm; qkv_proj's output columns are q (heads · head_dim), then k, then v (kv heads · head_dim
each); rotate-half RoPE on the first int(head_dim · partial_rotary_factor) dims; with sliding_window W
query i sees keys i - W < j <= i; gate_up_proj's outputs are gate, then up: down(up · silu(gate)).
GPT-NeoX: LayerNorm with biases; query_key_value's outputs viewed as (heads, 3 · head_dim), each head's
q, k, v in turn; RoPE on the first int(head_dim · rotary_pct) dims (base rotary_emb_base); the MLP is
dense_4h_to_h(gelu(dense_h_to_4h(x))) with the exact GELU; use_parallel_residual:
x + attn(ln1(x)) + mlp(ln2(x)), else x' = x + attn(ln1(x)); x' + mlp(ln2(x'))."""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import torch_forward as base  # noqa: E402 (the safetensors reader and writer, the tokenizer files)


def rope(t, n, heads, d, dims, theta, dtype):
    """Rotate-half RoPE on the first `dims` of each head of t [n, heads·d]; the rest passes through."""
    import torch
    inv = 1.0 / (theta ** (torch.arange(0, dims, 2, dtype=dtype) / dims))
    angles = torch.arange(n, dtype=dtype)[:, None] * inv[None, :]
    angles = torch.cat([angles, angles], dim=-1)
    cos, sin = angles.cos()[:, None, :], angles.sin()[:, None, :]
    t = t.reshape(n, heads, d)
    rot, rest = t[..., :dims], t[..., dims:]
    half = torch.cat([-rot[..., dims // 2:], rot[..., :dims // 2]], dim=-1)
    return torch.cat([rot * cos + half * sin, rest], dim=-1).reshape(n, heads * d)


def attend(q, k, v, n, heads, kv_heads, d, window, attention):
    import torch
    i = torch.arange(n)[:, None]
    j = torch.arange(n)[None, :]
    seen = j <= i
    if window is not None:
        seen = seen & (j > i - window)
    q = q.reshape(n, heads, d).transpose(0, 1)
    k = k.reshape(n, kv_heads, d).transpose(0, 1).repeat_interleave(heads // kv_heads, dim=0)
    v = v.reshape(n, kv_heads, d).transpose(0, 1).repeat_interleave(heads // kv_heads, dim=0)
    scores = (q @ k.transpose(1, 2)) / math.sqrt(d)
    scores = scores.masked_fill(~seen, float('-inf'))
    weights = torch.softmax(scores, dim=-1)
    attention.append(weights)
    return (weights @ v).transpose(0, 1).reshape(n, heads * d)


def phi3(c, w, ids, dtype):
    import torch
    E, H = c['hidden_size'], c['num_attention_heads']
    KV = c.get('num_key_value_heads') or H
    D = c.get('head_dim') or E // H
    params = c.get('rope_parameters') or {}
    theta = params.get('rope_theta', c.get('rope_theta', 10000.0))
    dims = int(D * params.get('partial_rotary_factor', c.get('partial_rotary_factor', 1.0)))
    eps, n, window = c.get('rms_norm_eps', 1e-6), len(ids), c.get('sliding_window')
    rms = lambda x, name: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w[name]
    attention = []
    x = w['model.embed_tokens.weight'][ids]
    for layer in range(c['num_hidden_layers']):
        p = f'model.layers.{layer}.'
        qkv = rms(x, p + 'input_layernorm.weight') @ w[p + 'self_attn.qkv_proj.weight'].T
        q, k, v = qkv[:, :H * D], qkv[:, H * D:(H + KV) * D], qkv[:, (H + KV) * D:]
        q, k = rope(q, n, H, D, dims, theta, dtype), rope(k, n, KV, D, dims, theta, dtype)
        x = x + attend(q, k, v, n, H, KV, D, window, attention) @ w[p + 'self_attn.o_proj.weight'].T
        gate, up = (rms(x, p + 'post_attention_layernorm.weight') @ w[p + 'mlp.gate_up_proj.weight'].T).chunk(2, dim=-1)
        x = x + (up * torch.nn.functional.silu(gate)) @ w[p + 'mlp.down_proj.weight'].T
    x = rms(x, 'model.norm.weight')
    head = w['model.embed_tokens.weight'] if c.get('tie_word_embeddings', False) else w['lm_head.weight']
    return attention, x[-1] @ head.T


def gpt_neox(c, w, ids, dtype):
    import torch
    E, H = c['hidden_size'], c['num_attention_heads']
    D, n = E // H, len(ids)
    params = c.get('rope_parameters') or {}
    theta = params.get('rope_theta', c.get('rotary_emb_base', 10000))
    dims = int(D * params.get('partial_rotary_factor', c.get('rotary_pct', 0.25)))
    eps = c.get('layer_norm_eps', 1e-5)
    ln = lambda x, name: torch.nn.functional.layer_norm(x, (E,), w[name + '.weight'], w[name + '.bias'], eps)
    linear = lambda x, name: x @ w[name + '.weight'].T + (w[name + '.bias'] if name + '.bias' in w else 0)
    attention = []

    def attn(h, p):
        qkv = linear(h, p + 'attention.query_key_value').reshape(n, H, 3 * D)
        q, k, v = (qkv[..., r * D:(r + 1) * D].reshape(n, E) for r in range(3))
        q, k = rope(q, n, H, D, dims, theta, dtype), rope(k, n, H, D, dims, theta, dtype)
        return linear(attend(q, k, v, n, H, H, D, None, attention), p + 'attention.dense')

    mlp = lambda h, p: linear(torch.nn.functional.gelu(linear(h, p + 'mlp.dense_h_to_4h')), p + 'mlp.dense_4h_to_h')
    x = w['gpt_neox.embed_in.weight'][ids]
    for layer in range(c['num_hidden_layers']):
        p = f'gpt_neox.layers.{layer}.'
        a = attn(ln(x, p + 'input_layernorm'), p)
        if c.get('use_parallel_residual', True):
            x = x + a + mlp(ln(x, p + 'post_attention_layernorm'), p)
        else:
            x = x + a
            x = x + mlp(ln(x, p + 'post_attention_layernorm'), p)
    x = ln(x, 'gpt_neox.final_layer_norm')
    head = w['gpt_neox.embed_in.weight'] if c.get('tie_word_embeddings', False) else w['embed_out.weight']
    return attention, x[-1] @ head.T


FAMILIES = {'phi3': phi3, 'gpt_neox': gpt_neox}


def forward(c, w, ids, dtype_name='float64'):
    """Every layer's attention [heads, n, n] and the last position's softmax, in the dtype named."""
    import torch
    dtype = getattr(torch, dtype_name)
    w = {k: v.to(dtype) for k, v in w.items()}
    with torch.no_grad():
        attention, logits = FAMILIES[c['model_type']](c, w, torch.tensor(ids, dtype=torch.long), dtype)
        return attention, torch.softmax(logits, dim=-1)

# ---------------------------------------------------------------- tiny checkpoints with the published keys

PHI3_MINI_4K = {  # microsoft/Phi-3-mini-4k-instruct's config.json; sizes shrunk below
    '_name_or_path': 'Phi-3-mini-4k-instruct', 'architectures': ['Phi3ForCausalLM'], 'attention_dropout': 0.0,
    'auto_map': {'AutoConfig': 'configuration_phi3.Phi3Config', 'AutoModelForCausalLM': 'modeling_phi3.Phi3ForCausalLM'},
    'bos_token_id': 1, 'embd_pdrop': 0.0, 'eos_token_id': 32000, 'hidden_act': 'silu', 'hidden_size': 3072,
    'initializer_range': 0.02, 'intermediate_size': 8192, 'max_position_embeddings': 4096, 'model_type': 'phi3',
    'num_attention_heads': 32, 'num_hidden_layers': 32, 'num_key_value_heads': 32, 'original_max_position_embeddings': 4096,
    'pad_token_id': 32000, 'resid_pdrop': 0.0, 'rms_norm_eps': 1e-05, 'rope_scaling': None, 'rope_theta': 10000.0,
    'sliding_window': 2047, 'tie_word_embeddings': False, 'torch_dtype': 'bfloat16', 'transformers_version': '4.40.2',
    'use_cache': True, 'attention_bias': False, 'vocab_size': 32064,
}
PYTHIA_70M = {  # EleutherAI/pythia-70m's config.json; sizes shrunk below
    'architectures': ['GPTNeoXForCausalLM'], 'bos_token_id': 0, 'eos_token_id': 0, 'hidden_act': 'gelu', 'hidden_size': 512,
    'initializer_range': 0.02, 'intermediate_size': 2048, 'layer_norm_eps': 1e-05, 'max_position_embeddings': 2048,
    'model_type': 'gpt_neox', 'num_attention_heads': 8, 'num_hidden_layers': 6, 'rotary_emb_base': 10000, 'rotary_pct': 0.25,
    'tie_word_embeddings': False, 'torch_dtype': 'float16', 'transformers_version': '4.24.0', 'use_cache': True,
    'use_parallel_residual': True, 'vocab_size': 50304,
}
PYTHIA_160M = {**PYTHIA_70M, 'hidden_size': 768, 'intermediate_size': 3072, 'num_attention_heads': 12, 'num_hidden_layers': 12}


def shrunk(config, **sizes):
    return {**config, **sizes}


def phi3_tensors(rng, c):
    E, F, V, H = c['hidden_size'], c['intermediate_size'], c['vocab_size'], c['num_attention_heads']
    KV, D = c.get('num_key_value_heads') or H, c.get('head_dim') or E // H
    r = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    t = {'model.embed_tokens.weight': r(V, E, s=1.0), 'model.norm.weight': 1 + r(E, s=0.1)}
    if not c.get('tie_word_embeddings', False):
        t['lm_head.weight'] = r(V, E)
    for i in range(c['num_hidden_layers']):
        p = f'model.layers.{i}.'
        t.update({p + 'input_layernorm.weight': 1 + r(E, s=0.1), p + 'post_attention_layernorm.weight': 1 + r(E, s=0.1),
                  p + 'self_attn.qkv_proj.weight': r((H + 2 * KV) * D, E, s=0.5), p + 'self_attn.o_proj.weight': r(E, H * D),
                  p + 'mlp.gate_up_proj.weight': r(2 * F, E), p + 'mlp.down_proj.weight': r(E, F)})
    return t


def neox_tensors(rng, c, buffers=False):
    E, F, V = c['hidden_size'], c['intermediate_size'], c['vocab_size']
    r = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    t = {'gpt_neox.embed_in.weight': r(V, E, s=1.0), 'gpt_neox.final_layer_norm.weight': 1 + r(E, s=0.1),
         'gpt_neox.final_layer_norm.bias': r(E, s=0.1), 'embed_out.weight': r(V, E)}
    for i in range(c['num_hidden_layers']):
        p = f'gpt_neox.layers.{i}.'
        for norm in ('input_layernorm', 'post_attention_layernorm'):
            t.update({p + norm + '.weight': 1 + r(E, s=0.1), p + norm + '.bias': r(E, s=0.1)})
        t.update({p + 'attention.query_key_value.weight': r(3 * E, E, s=0.5), p + 'attention.query_key_value.bias': r(3 * E, s=0.2),
                  p + 'attention.dense.weight': r(E, E), p + 'attention.dense.bias': r(E, s=0.1),
                  p + 'mlp.dense_h_to_4h.weight': r(F, E), p + 'mlp.dense_h_to_4h.bias': r(F, s=0.1),
                  p + 'mlp.dense_4h_to_h.weight': r(E, F), p + 'mlp.dense_4h_to_h.bias': r(E, s=0.1)})
        if buffers:  # what old saves carry beside the weights: the causal mask and the rotary frequencies
            P = c['max_position_embeddings']
            t[p + 'attention.bias'] = np.tril(np.ones((P, P), dtype=np.float32)).reshape(1, 1, P, P)
            t[p + 'attention.masked_bias'] = np.array(-1e9, dtype=np.float32)
            t[p + 'attention.rotary_emb.inv_freq'] = r(2)
    return t


def cases():
    small = dict(hidden_size=16, intermediate_size=24, num_attention_heads=4, num_key_value_heads=4, num_hidden_layers=2,
                 max_position_embeddings=64, vocab_size=base.VOCAB)
    phi = shrunk(PHI3_MINI_4K, **small)
    return {
        'phi3-mini-4k': (phi, phi3_tensors, 'BF16'),
        'phi3-window-5': (shrunk(phi, sliding_window=5), phi3_tensors, 'F32'),
        'pythia-70m': (shrunk(PYTHIA_70M, hidden_size=32, intermediate_size=64, num_attention_heads=4, num_hidden_layers=2,
                              max_position_embeddings=64, vocab_size=base.VOCAB), neox_tensors, 'F16'),
        'pythia-160m': (shrunk(PYTHIA_160M, hidden_size=48, intermediate_size=96, num_attention_heads=3, num_hidden_layers=3,
                               max_position_embeddings=64, vocab_size=base.VOCAB), lambda rng, c: neox_tensors(rng, c, True), 'F32'),
    }


def generate(root):
    rng = np.random.default_rng(31)
    made = cases()
    for name, (config, tensors, dtype) in made.items():
        base.write_case(os.path.join(root, name), config, tensors(rng, config), dtype)
    print(json.dumps(sorted(made)))


def main():
    base.serve(generate, lambda r: forward(*base.load(r['dir']), r['ids'], r.get('dtype', 'float64')))


if __name__ == '__main__':
    main()
