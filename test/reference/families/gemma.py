"""An independent float64 forward pass of Gemma 1, 2 and 3 (text) checkpoints in PyTorch, written from the
architectures' published definitions (no transformers library), and tiny checkpoints with the real published
config keys of gemma-2b, gemma-2-2b, gemma-3-1b-pt, gemma-3-270m and gemma-3-4b's text model (sizes shrunk,
sliding windows shrunk below the test text's length, every other key as published).

  python3 gemma.py generate ROOT        writes ROOT/<case>/ for every case; prints the cases as JSON
  python3 gemma.py forward REQUEST.json  REQUEST = [{ "dir", "ids" }]; prints, in float64,
                                         [{ "attention": [layer][head][query][key], "probs": [vocab] }]

torch_forward.py's `forward` command dispatches these model types here too.

The definition, per layer (row vectors):
  norm(x) = x / sqrt(mean(x^2) + eps) * (1 + w)                 (zero-centred RMSNorm)
  x0 = embed[ids] * sqrt(hidden_size), the factor held as a float32 then in the stored embedding's dtype
  gemma:   x += attn(norm_in(x));            x += mlp(norm_post_attn(x))
  gemma2/3: x += norm_post_attn(attn(norm_in(x)));  x += norm_post_ff(mlp(norm_pre_ff(x)))
  attn: q, k, v = h Wq^T, h Wk^T, h Wv^T; gemma3: q, k normed per head (q_norm, k_norm, head_dim wide);
        RoPE on the two halves of each head (rotate_half), base and linear factor per layer;
        s = q.k * scaling, scaling = head_dim^-1/2 (gemma) or query_pre_attn_scalar^-1/2 (gemma2/3);
        gemma2: s = c * tanh(s / c), c = attn_logit_softcapping, before the mask;
        mask: causal, and on sliding layers only keys i - W < j <= i; softmax; out = w v, then Wo^T
  mlp: down(gelu_tanh(gate(h)) * up(h))
  logits = norm_final(x) embed^T (or lm_head); gemma2/3: c * tanh(logits / c), c = final_logit_softcapping
  layers: gemma all global; gemma2 sliding on even layers; gemma3 layer_types, else global where
          (i + 1) % sliding_window_pattern == 0; gemma3's sliding layers rotate with rope_local_base_freq,
          its global ones with rope_theta and rope_scaling (linear: frequencies / factor)."""
import json
import math
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))

FAMILIES = ('gemma', 'gemma2', 'gemma3_text', 'gemma3')

# Gemma3TextConfig's defaults, for the keys a multimodal gemma3 config's text_config leaves out.
GEMMA3_TEXT_DEFAULTS = {
    'model_type': 'gemma3_text', 'vocab_size': 262208, 'hidden_size': 2304, 'intermediate_size': 9216,
    'num_hidden_layers': 26, 'num_attention_heads': 8, 'num_key_value_heads': 4, 'head_dim': 256,
    'max_position_embeddings': 131072, 'rms_norm_eps': 1e-6, 'rope_theta': 1000000.0, 'query_pre_attn_scalar': 256,
    'sliding_window': 4096, 'final_logit_softcapping': None, 'attn_logit_softcapping': None, 'rope_scaling': None,
    'rope_local_base_freq': 10000.0, 'sliding_window_pattern': 6, 'tie_word_embeddings': True,
}

# ---------------------------------------------------------------- the published configs, shrunk

# google/gemma-2b: sizes shrunk (hidden 2048 -> 24, heads 8 -> 4, head_dim 256 -> 8, one key/value head kept,
# intermediate, layers, positions, vocabulary); hidden_act "gelu" as published (the modelling code ignores it).
GEMMA_2B = {
    'architectures': ['GemmaForCausalLM'], 'attention_bias': False, 'attention_dropout': 0.0, 'bos_token_id': 2,
    'eos_token_id': 1, 'head_dim': 8, 'hidden_act': 'gelu', 'hidden_size': 24, 'initializer_range': 0.02,
    'intermediate_size': 40, 'max_position_embeddings': 64, 'model_type': 'gemma', 'num_attention_heads': 4,
    'num_hidden_layers': 2, 'num_key_value_heads': 1, 'pad_token_id': 0, 'rms_norm_eps': 1e-06, 'rope_scaling': None,
    'rope_theta': 10000.0, 'torch_dtype': 'bfloat16', 'transformers_version': '4.38.0.dev0', 'use_cache': True,
    'vocab_size': 300,
}

# google/gemma-2-2b: sizes shrunk; sliding_window 4096 -> 4; query_pre_attn_scalar and the softcaps as published.
GEMMA_2_2B = {
    'architectures': ['Gemma2ForCausalLM'], 'attention_bias': False, 'attention_dropout': 0.0,
    'attn_logit_softcapping': 50.0, 'bos_token_id': 2, 'cache_implementation': 'hybrid', 'eos_token_id': [1, 107],
    'final_logit_softcapping': 30.0, 'head_dim': 8, 'hidden_act': 'gelu_pytorch_tanh',
    'hidden_activation': 'gelu_pytorch_tanh', 'hidden_size': 24, 'initializer_range': 0.02, 'intermediate_size': 40,
    'max_position_embeddings': 64, 'model_type': 'gemma2', 'num_attention_heads': 4, 'num_hidden_layers': 3,
    'num_key_value_heads': 2, 'pad_token_id': 0, 'query_pre_attn_scalar': 256, 'rms_norm_eps': 1e-06,
    'rope_theta': 10000.0, 'sliding_window': 4, 'torch_dtype': 'float32', 'transformers_version': '4.42.4',
    'use_cache': True, 'vocab_size': 300,
}

# google/gemma-3-1b-pt: sizes shrunk; sliding_window 512 -> 4; 7 layers (the 6th global, by the pattern).
GEMMA_3_1B = {
    'architectures': ['Gemma3ForCausalLM'], 'attention_bias': False, 'attention_dropout': 0.0,
    'attn_logit_softcapping': None, 'bos_token_id': 2, 'cache_implementation': 'hybrid', 'eos_token_id': [1, 106],
    'final_logit_softcapping': None, 'head_dim': 8, 'hidden_activation': 'gelu_pytorch_tanh', 'hidden_size': 24,
    'initializer_range': 0.02, 'intermediate_size': 40, 'max_position_embeddings': 64, 'model_type': 'gemma3_text',
    'num_attention_heads': 4, 'num_hidden_layers': 7, 'num_key_value_heads': 1, 'pad_token_id': 0,
    'query_pre_attn_scalar': 256, 'rms_norm_eps': 1e-06, 'rope_local_base_freq': 10000, 'rope_scaling': None,
    'rope_theta': 1000000, 'sliding_window': 4, 'sliding_window_pattern': 6, 'torch_dtype': 'bfloat16',
    'transformers_version': '4.50.0.dev0', 'use_cache': True, 'vocab_size': 300,
}

# google/gemma-3-270m: sizes shrunk; sliding_window 512 -> 3; layer_types cut to the first 6 of its 18.
GEMMA_3_270M = {
    '_sliding_window_pattern': 6, 'architectures': ['Gemma3ForCausalLM'], 'attention_bias': False,
    'attention_dropout': 0.0, 'attn_logit_softcapping': None, 'bos_token_id': 2, 'eos_token_id': 1,
    'final_logit_softcapping': None, 'head_dim': 8, 'hidden_activation': 'gelu_pytorch_tanh', 'hidden_size': 16,
    'initializer_range': 0.02, 'intermediate_size': 32,
    'layer_types': ['sliding_attention'] * 5 + ['full_attention'], 'max_position_embeddings': 64,
    'model_type': 'gemma3_text', 'num_attention_heads': 4, 'num_hidden_layers': 6, 'num_key_value_heads': 1,
    'pad_token_id': 0, 'query_pre_attn_scalar': 256, 'rms_norm_eps': 1e-06, 'rope_local_base_freq': 10000.0,
    'rope_scaling': None, 'rope_theta': 1000000.0, 'sliding_window': 3, 'torch_dtype': 'bfloat16',
    'transformers_version': '4.55.0.dev0', 'use_bidirectional_attention': False, 'use_cache': True,
    'vocab_size': 300,
}

# google/gemma-3-4b-pt's text_config: sizes shrunk; rope_scaling linear 8 on the global layers as published.
GEMMA_3_4B_TEXT = {
    'attention_bias': False, 'attention_dropout': 0.0, 'attn_logit_softcapping': None, 'cache_implementation': 'hybrid',
    'final_logit_softcapping': None, 'head_dim': 8, 'hidden_activation': 'gelu_pytorch_tanh', 'hidden_size': 24,
    'initializer_range': 0.02, 'intermediate_size': 40, 'max_position_embeddings': 64, 'model_type': 'gemma3_text',
    'num_attention_heads': 4, 'num_hidden_layers': 6, 'num_key_value_heads': 2, 'query_pre_attn_scalar': 256,
    'rms_norm_eps': 1e-06, 'rope_local_base_freq': 10000.0, 'rope_scaling': {'factor': 8.0, 'rope_type': 'linear'},
    'rope_theta': 1000000.0, 'sliding_window': 4, 'sliding_window_pattern': 6, 'torch_dtype': 'bfloat16',
    'use_cache': True, 'vocab_size': 300,
}

# google/gemma-3-4b-pt (multimodal, model_type gemma3): its text_config as published gives only these keys and
# leaves the rest to Gemma3TextConfig's defaults (8 heads, 4 key/value heads kept); sizes shrunk, head_dim and
# the vocabulary given to shrink them; sliding_window 1024 -> 4; a vision tensor and the projector's beside.
GEMMA_3_4B_PT = {
    'architectures': ['Gemma3ForConditionalGeneration'], 'boi_token_index': 255999, 'eoi_token_index': 256000,
    'eos_token_id': [1, 106], 'image_token_index': 262144, 'initializer_range': 0.02, 'mm_tokens_per_image': 256,
    'model_type': 'gemma3',
    'text_config': {'head_dim': 8, 'hidden_size': 24, 'intermediate_size': 40, 'model_type': 'gemma3_text',
                    'num_hidden_layers': 7, 'rope_scaling': {'factor': 8.0, 'rope_type': 'linear'}, 'sliding_window': 4,
                    'vocab_size': 300},
    'torch_dtype': 'bfloat16', 'transformers_version': '4.50.0.dev0',
    'vision_config': {'hidden_size': 1152, 'image_size': 896, 'intermediate_size': 4304, 'model_type': 'siglip_vision_model',
                      'num_attention_heads': 16, 'num_hidden_layers': 27, 'patch_size': 14, 'vision_use_head': False},
}

CASES = {
    'gemma-2b': (GEMMA_2B, 'BF16'),
    'gemma-2-2b': (GEMMA_2_2B, 'F32'),
    'gemma-3-1b-pt': (GEMMA_3_1B, 'BF16'),
    'gemma-3-270m': (GEMMA_3_270M, 'BF16'),
    'gemma-3-4b-text': (GEMMA_3_4B_TEXT, 'BF16'),
    'gemma-3-4b-pt': (GEMMA_3_4B_PT, 'BF16'),
}


def text_model(c, w):
    """A multimodal gemma3 checkpoint's text model: text_config over Gemma3TextConfig's defaults, and its
    language model's tensors (under language_model.model. as published, or model.language_model.) renamed."""
    if c['model_type'] != 'gemma3':
        return c, w
    text = {**GEMMA3_TEXT_DEFAULTS, **c.get('text_config', {})}
    out = {}
    for name, t in w.items():
        for prefix, to in (('language_model.model.', 'model.'), ('model.language_model.', 'model.'), ('language_model.lm_head.', 'lm_head.')):
            if name.startswith(prefix):
                out[to + name[len(prefix):]] = t
    return text, out


def tensors(rng, c):
    if c['model_type'] == 'gemma3':
        text = {**GEMMA3_TEXT_DEFAULTS, **c['text_config']}
        t = {'language_model.' + name: a for name, a in tensors(rng, text).items()}
        t['vision_tower.vision_model.embeddings.patch_embedding.bias'] = (rng.standard_normal(8)).astype(np.float32)
        t['multi_modal_projector.mm_input_projection_weight'] = (rng.standard_normal((8, text['hidden_size']))).astype(np.float32)
        return t
    E, F, V = c['hidden_size'], c['intermediate_size'], c['vocab_size']
    H, KV, D = c['num_attention_heads'], c['num_key_value_heads'], c['head_dim']
    r = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    t = {'model.embed_tokens.weight': r(V, E, s=1.0), 'model.norm.weight': r(E, s=0.2)}
    if not c.get('tie_word_embeddings', True):
        t['lm_head.weight'] = r(V, E)
    for i in range(c['num_hidden_layers']):
        p = f'model.layers.{i}.'
        t.update({p + 'input_layernorm.weight': r(E, s=0.2), p + 'post_attention_layernorm.weight': r(E, s=0.2),
                  p + 'self_attn.q_proj.weight': r(H * D, E, s=0.6), p + 'self_attn.k_proj.weight': r(KV * D, E, s=0.6),
                  p + 'self_attn.v_proj.weight': r(KV * D, E), p + 'self_attn.o_proj.weight': r(E, H * D),
                  p + 'mlp.gate_proj.weight': r(F, E), p + 'mlp.up_proj.weight': r(F, E), p + 'mlp.down_proj.weight': r(E, F)})
        if c['model_type'] != 'gemma':
            t.update({p + 'pre_feedforward_layernorm.weight': r(E, s=0.2), p + 'post_feedforward_layernorm.weight': r(E, s=0.2)})
        if c['model_type'] == 'gemma3_text':
            t.update({p + 'self_attn.q_norm.weight': r(D, s=0.2), p + 'self_attn.k_norm.weight': r(D, s=0.2)})
    return t


def generate(root):
    from torch_forward import write_case  # the shared writer: safetensors by hand and a byte-level tokenizer
    rng = np.random.default_rng(31)
    for name, (config, dtype) in CASES.items():
        write_case(os.path.join(root, name), config, tensors(rng, config), dtype)
    print(json.dumps(sorted(CASES)))

# ---------------------------------------------------------------- the forward pass


def embed_dtype(folder):
    """The dtype the safetensors file stores the embedding in (its header says so)."""
    index = os.path.join(folder, 'model.safetensors.index.json')
    names = ('model.embed_tokens.weight', 'language_model.model.embed_tokens.weight', 'model.language_model.embed_tokens.weight')
    files = ['model.safetensors']
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)['weight_map'].values()))
    for file in files:
        with open(os.path.join(folder, file), 'rb') as f:
            (size,) = struct.unpack('<Q', f.read(8))
            header = json.loads(f.read(size))
        for name in names:
            if name in header:
                return header[name]['dtype']
    raise ValueError(f'{folder}: no embedding tensor')


def layer_kinds(c):
    """Per layer: (window or None, rope base, linear factor)."""
    kind, L = c['model_type'], c['num_hidden_layers']
    theta = c.get('rope_theta', 1000000.0 if kind == 'gemma3_text' else 10000.0)
    scaling = c.get('rope_scaling') or {}
    factor = scaling.get('factor', 1.0) if scaling.get('rope_type', scaling.get('type')) == 'linear' else 1.0
    if kind == 'gemma':
        return [(None, theta, factor)] * L
    window = c.get('sliding_window', 4096)
    if c.get('layer_types'):
        sliding = [t == 'sliding_attention' for t in c['layer_types']]
    elif kind == 'gemma2':
        sliding = [i % 2 == 0 for i in range(L)]
    else:
        sliding = [(i + 1) % c.get('sliding_window_pattern', 6) != 0 for i in range(L)]
    local = c.get('rope_local_base_freq', 10000.0) if kind == 'gemma3_text' else None
    return [(window, local if local is not None else theta, 1.0 if local is not None else factor) if s else (None, theta, factor)
            for s in sliding]


def forward(c, w, ids, dtype='F32'):
    """Every layer's attention weights [layers][heads, n, n] and the last position's softmax, in float64."""
    import torch
    c, w = text_model(c, w)
    w = {k: v.to(torch.float64) for k, v in w.items()}
    kind = c['model_type']
    E, H, KV, D = c['hidden_size'], c['num_attention_heads'], c['num_key_value_heads'], c.get('head_dim', 256)
    eps = c.get('rms_norm_eps', 1e-6)
    ids = torch.tensor(ids, dtype=torch.long)
    n = len(ids)
    torch_dtype = {'F32': torch.float32, 'F16': torch.float16, 'BF16': torch.bfloat16, 'F64': torch.float64}[dtype]
    # As the modelling code holds it: a float32 tensor, then the weights' dtype.
    normalizer = torch.tensor(E ** 0.5, dtype=torch.float32).to(torch_dtype).to(torch.float64)
    scaling = (c.get('query_pre_attn_scalar', 256) if kind != 'gemma' else D) ** -0.5
    attn_cap = c.get('attn_logit_softcapping', 50.0) if kind == 'gemma2' else None
    final_cap = c.get('final_logit_softcapping', 30.0 if kind == 'gemma2' else None) if kind != 'gemma' else None
    sandwich = kind != 'gemma'

    def norm(x, name):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * (1.0 + w[name])

    def rope(t, heads, theta, factor):
        inv_freq = 1.0 / (theta ** (torch.arange(0, D, 2, dtype=torch.float64) / D)) / factor
        angles = torch.arange(n, dtype=torch.float64)[:, None] * inv_freq[None, :]
        angles = torch.cat([angles, angles], dim=-1)
        t = t.view(n, heads, D)
        half = torch.cat([-t[..., D // 2:], t[..., :D // 2]], dim=-1)
        return t * angles.cos()[:, None, :] + half * angles.sin()[:, None, :]

    gelu = lambda x: 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    linear = lambda x, name: x @ w[name + '.weight'].T
    positions = torch.arange(n)
    attention = []
    x = w['model.embed_tokens.weight'][ids] * normalizer
    for i, (window, theta, factor) in enumerate(layer_kinds(c)):
        p = f'model.layers.{i}.'
        h = norm(x, p + 'input_layernorm.weight')
        q = linear(h, p + 'self_attn.q_proj').view(n, H, D)
        k = linear(h, p + 'self_attn.k_proj').view(n, KV, D)
        v = linear(h, p + 'self_attn.v_proj').view(n, KV, D)
        if kind == 'gemma3_text':
            q, k = norm(q, p + 'self_attn.q_norm.weight'), norm(k, p + 'self_attn.k_norm.weight')
        q = rope(q, H, theta, factor).transpose(0, 1)
        k = rope(k, KV, theta, factor).transpose(0, 1).repeat_interleave(H // KV, dim=0)
        v = v.transpose(0, 1).repeat_interleave(H // KV, dim=0)
        scores = q @ k.transpose(1, 2) * scaling
        if attn_cap is not None:
            scores = attn_cap * torch.tanh(scores / attn_cap)
        seen = positions[None, :] <= positions[:, None]
        if window is not None:
            seen &= positions[None, :] > positions[:, None] - window
        weights = torch.softmax(scores.masked_fill(~seen, -math.inf), dim=-1)
        attention.append(weights)
        out = linear((weights @ v).transpose(0, 1).reshape(n, H * D), p + 'self_attn.o_proj')
        if sandwich:
            x = x + norm(out, p + 'post_attention_layernorm.weight')
            h = norm(x, p + 'pre_feedforward_layernorm.weight')
        else:
            x = x + out
            h = norm(x, p + 'post_attention_layernorm.weight')
        m = linear(gelu(linear(h, p + 'mlp.gate_proj')) * linear(h, p + 'mlp.up_proj'), p + 'mlp.down_proj')
        x = x + (norm(m, p + 'post_feedforward_layernorm.weight') if sandwich else m)
    x = norm(x, 'model.norm.weight')
    head = w['lm_head.weight'] if 'lm_head.weight' in w else w['model.embed_tokens.weight']
    logits = x[-1] @ head.T
    if final_cap is not None:
        logits = final_cap * torch.tanh(logits / final_cap)
    return attention, torch.softmax(logits, dim=-1)


def main():
    from torch_forward import load, serve
    serve(generate, lambda r: forward(*load(r['dir']), r['ids'], embed_dtype(r['dir'])))


if __name__ == '__main__':
    main()
