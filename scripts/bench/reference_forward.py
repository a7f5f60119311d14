"""bench:model's references on one model folder and one list of ids, in one process: a float32 numpy
forward (OpenBLAS; every attention weight materialised and kept, as our run keeps them), numpy's own
sgemm at the forward's matrix shapes (the machine's practical limit), and a float32 PyTorch forward
written in plain torch ops (no transformers package), timed warm: one first call, then the best of
three. Both read the same model.safetensors, parsed by hand (8-byte header size, JSON header, data;
BF16 widened as uint16 << 16), and compute GPT-2 (Conv1D, learned positions, LayerNorm, gelu_new) or
the Llama/Qwen2 decoder (RMSNorm, RoPE with llama3 scaling, grouped-query attention, SwiGLU, q/k/v
biases where the file has them). They are checked against each other (the last logits, the
attention of layer 0 and the last layer) and against attention files `attn run --out` wrote.

  python3 reference_forward.py REQUEST.json   prints one JSON object
  REQUEST = { "dir", "ids": [...], "matrices": [{ "k", "m", "count" }], "attention": [{ "label", "file" }],
              "numpyCalls": 3, "torchWarmCalls": 3 }"""
import json
import math
import os
import resource
import struct
import sys
import time

import numpy as np

# ---------------------------------------------------------------- the file


def read_header(path):
    with open(path, 'rb') as f:
        (length,) = struct.unpack('<Q', f.read(8))
        return json.loads(f.read(length)), 8 + length


def read_weights(folder):
    """Every tensor of model.safetensors as float32 (BF16 and F16 widened)."""
    path = os.path.join(folder, 'model.safetensors')
    header, base = read_header(path)
    raw = np.memmap(path, dtype=np.uint8, mode='r')
    out = {}
    for name, t in header.items():
        if name == '__metadata__':
            continue
        start, end = t['data_offsets']
        data = raw[base + start: base + end]
        if t['dtype'] == 'F32':
            a = np.array(data.view('<f4'))
        elif t['dtype'] == 'BF16':
            a = (data.view('<u2').astype(np.uint32) << 16).view(np.float32)
        elif t['dtype'] == 'F16':
            a = data.view('<f2').astype(np.float32)
        else:
            raise SystemExit(f'{path}: {name} is {t["dtype"]}, not F32, F16 or BF16')
        out[name] = a.reshape(t['shape'])
    return out


def attention_layers(path, layers):
    """Layers of an `attn run --out` file ([layers, heads, n, n] F32)."""
    header, base = read_header(path)
    t = header['attention']
    L, H, n, _ = t['shape']
    raw = np.memmap(path, dtype='<f4', mode='r', offset=base + t['data_offsets'][0], shape=(L, H, n, n))
    return {l: np.array(raw[l]) for l in layers}

# ---------------------------------------------------------------- the architecture


def rope_frequencies(c, d):
    """RoPE's inverse frequencies, with Llama 3's scaling where rope_scaling asks for it (float64)."""
    theta = c.get('rope_theta', 10000.0)
    f = 1.0 / theta ** (np.arange(0, d, 2, dtype=np.float64) / d)
    s = c.get('rope_scaling') or {}
    if s.get('rope_type', s.get('type')) == 'llama3':
        factor, low, high, L0 = s['factor'], s['low_freq_factor'], s['high_freq_factor'], s['original_max_position_embeddings']
        wavelength = 2 * math.pi / f
        blend = (L0 / wavelength - low) / (high - low)
        f = np.where(wavelength < L0 / high, f, np.where(wavelength > L0 / low, f / factor, (1 - blend) * f / factor + blend * f))
    elif s:
        raise SystemExit(f'rope_scaling {s} is not computed by this reference')
    return f


def shape_of(c):
    if c['model_type'] == 'gpt2':
        return c['n_layer'], c['n_head'], c['n_head'], c['n_embd'] // c['n_head']
    H = c['num_attention_heads']
    return c['num_hidden_layers'], H, c.get('num_key_value_heads') or H, c.get('head_dim') or c['hidden_size'] // H


def numpy_forward(c, w, ids):
    """(attention per layer [heads, n, n], the last position's logits), all float32."""
    n = len(ids)
    L, H, KV, D = shape_of(c)
    mask = np.triu(np.full((n, n), -np.inf, dtype=np.float32), 1)
    scale = np.float32(1 / math.sqrt(D))
    attention = []

    def attend(q, k, v):
        q = q.reshape(n, H, D).transpose(1, 0, 2)
        k = np.repeat(k.reshape(n, KV, D).transpose(1, 0, 2), H // KV, axis=0)
        v = np.repeat(v.reshape(n, KV, D).transpose(1, 0, 2), H // KV, axis=0)
        s = q @ k.transpose(0, 2, 1)
        s *= scale
        s += mask
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        attention.append(s)
        return (s @ v).transpose(1, 0, 2).reshape(n, H * D)

    if c['model_type'] == 'gpt2':
        eps = np.float32(c.get('layer_norm_epsilon', 1e-5))

        def ln(x, name):
            m = x.mean(axis=-1, keepdims=True)
            d = x - m
            return d / np.sqrt((d * d).mean(axis=-1, keepdims=True) + eps) * w[name + '.weight'] + w[name + '.bias']

        def gelu(x):
            return np.float32(0.5) * x * (1 + np.tanh(np.float32(math.sqrt(2 / math.pi)) * (x + np.float32(0.044715) * x * x * x)))
        E = c['n_embd']
        x = w['wte.weight'][ids] + w['wpe.weight'][:n]
        for i in range(L):
            p = f'h.{i}.'
            qkv = ln(x, p + 'ln_1') @ w[p + 'attn.c_attn.weight'] + w[p + 'attn.c_attn.bias']
            x = x + attend(qkv[:, :E], qkv[:, E:2 * E], qkv[:, 2 * E:]) @ w[p + 'attn.c_proj.weight'] + w[p + 'attn.c_proj.bias']
            x = x + gelu(ln(x, p + 'ln_2') @ w[p + 'mlp.c_fc.weight'] + w[p + 'mlp.c_fc.bias']) @ w[p + 'mlp.c_proj.weight'] + w[p + 'mlp.c_proj.bias']
        last = ln(x[-1:], 'ln_f')[0]
        head = w.get('lm_head.weight', w['wte.weight'])
    else:
        eps = np.float32(c.get('rms_norm_eps', 1e-6))
        angles = np.arange(n, dtype=np.float64)[:, None] * rope_frequencies(c, D)[None, :]
        cos = np.cos(np.concatenate([angles, angles], axis=1)).astype(np.float32)[:, None, :]
        sin = np.sin(np.concatenate([angles, angles], axis=1)).astype(np.float32)[:, None, :]

        def rms(x, name):
            return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * w[name]

        def rope(t, heads):
            t = t.reshape(n, heads, D)
            half = np.concatenate([-t[..., D // 2:], t[..., :D // 2]], axis=-1)
            return (t * cos + half * sin).reshape(n, heads * D)

        def linear(x, name):
            y = x @ w[name + '.weight'].T
            return y + w[name + '.bias'] if name + '.bias' in w else y
        x = w['model.embed_tokens.weight'][ids]
        for i in range(L):
            p = f'model.layers.{i}.'
            h = rms(x, p + 'input_layernorm.weight')
            q = rope(linear(h, p + 'self_attn.q_proj'), H)
            k = rope(linear(h, p + 'self_attn.k_proj'), KV)
            x = x + linear(attend(q, k, linear(h, p + 'self_attn.v_proj')), p + 'self_attn.o_proj')
            h = rms(x, p + 'post_attention_layernorm.weight')
            g = linear(h, p + 'mlp.gate_proj')
            x = x + linear(g / (1 + np.exp(-g)) * linear(h, p + 'mlp.up_proj'), p + 'mlp.down_proj')
        last = rms(x[-1:], 'model.norm.weight')[0]
        head = w.get('lm_head.weight', w['model.embed_tokens.weight'])
    return attention, head @ last


def torch_forward(torch, c, w, ids):
    """The same forward in plain torch ops (float32), written apart from numpy_forward."""
    F = torch.nn.functional
    n = len(ids)
    L, H, KV, D = shape_of(c)
    ids = torch.tensor(ids, dtype=torch.long)
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    attention = []

    def attend(q, k, v):
        q = q.view(n, H, D).transpose(0, 1)
        k = k.reshape(n, KV, D).transpose(0, 1).repeat_interleave(H // KV, dim=0)
        v = v.reshape(n, KV, D).transpose(0, 1).repeat_interleave(H // KV, dim=0)
        scores = (q @ k.transpose(1, 2)) / math.sqrt(D)
        weights = torch.softmax(scores.masked_fill(~causal, float('-inf')), dim=-1)
        attention.append(weights)
        return (weights @ v).transpose(0, 1).reshape(n, H * D)

    if c['model_type'] == 'gpt2':
        E = c['n_embd']
        eps = c.get('layer_norm_epsilon', 1e-5)

        def ln(x, name):
            return F.layer_norm(x, (E,), w[name + '.weight'], w[name + '.bias'], eps)
        x = w['wte.weight'][ids] + w['wpe.weight'][:n]
        for i in range(L):
            p = f'h.{i}.'
            q, k, v = torch.addmm(w[p + 'attn.c_attn.bias'], ln(x, p + 'ln_1'), w[p + 'attn.c_attn.weight']).split(E, dim=1)
            x = x + torch.addmm(w[p + 'attn.c_proj.bias'], attend(q, k, v), w[p + 'attn.c_proj.weight'])
            h = F.gelu(torch.addmm(w[p + 'mlp.c_fc.bias'], ln(x, p + 'ln_2'), w[p + 'mlp.c_fc.weight']), approximate='tanh')
            x = x + torch.addmm(w[p + 'mlp.c_proj.bias'], h, w[p + 'mlp.c_proj.weight'])
        last = ln(x[-1], 'ln_f')
        head = w.get('lm_head.weight', w['wte.weight'])
    else:
        eps = c.get('rms_norm_eps', 1e-6)
        angles = torch.outer(torch.arange(n, dtype=torch.float64), torch.from_numpy(rope_frequencies(c, D)))
        angles = torch.cat([angles, angles], dim=-1)
        cos, sin = angles.cos().float()[:, None, :], angles.sin().float()[:, None, :]

        def rms(x, name):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w[name]

        def rope(t, heads):
            t = t.view(n, heads, D)
            return (t * cos + torch.cat([-t[..., D // 2:], t[..., :D // 2]], dim=-1) * sin).reshape(n, heads * D)

        def linear(x, name):
            return F.linear(x, w[name + '.weight'], w.get(name + '.bias'))
        x = w['model.embed_tokens.weight'][ids]
        for i in range(L):
            p = f'model.layers.{i}.'
            h = rms(x, p + 'input_layernorm.weight')
            q = rope(linear(h, p + 'self_attn.q_proj'), H)
            k = rope(linear(h, p + 'self_attn.k_proj'), KV)
            x = x + linear(attend(q, k, linear(h, p + 'self_attn.v_proj')), p + 'self_attn.o_proj')
            h = rms(x, p + 'post_attention_layernorm.weight')
            x = x + linear(F.silu(linear(h, p + 'mlp.gate_proj')) * linear(h, p + 'mlp.up_proj'), p + 'mlp.down_proj')
        last = rms(x[-1], 'model.norm.weight')
        head = w.get('lm_head.weight', w['model.embed_tokens.weight'])
    return attention, head @ last

# ---------------------------------------------------------------- the measures


def timed(f, calls):
    times, out = [], None
    for _ in range(calls):
        t = time.perf_counter()
        out = f()
        times.append((time.perf_counter() - t) * 1000)
    return out, times


def sgemm(n, matrices):
    """numpy's float32 GEMM on each of the forward's matrix shapes (x [n, k] · W [k, m], its best call), summed as the forward runs them."""
    rng = np.random.default_rng(0)
    flops = seconds = 0.0
    per = []
    for s in matrices:
        x = rng.standard_normal((n, s['k']), dtype=np.float32)
        w = rng.standard_normal((s['k'], s['m']), dtype=np.float32)
        x @ w
        # Best of at least five calls and a quarter second: a shared machine's other work lands on some of them.
        calls = max(5, int(0.25 / max(1e-4, min(timed(lambda: x @ w, 2)[1]) / 1000)))
        best = min(timed(lambda: x @ w, min(calls, 50))[1]) / 1000
        f = 2.0 * n * s['k'] * s['m']
        per.append({'n': n, 'k': s['k'], 'm': s['m'], 'gflops': f / best / 1e9})
        flops += f * s['count']
        seconds += best * s['count']
    return {'gflops': flops / seconds / 1e9, 'shapes': per}


def most(a, b):
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))))


def main():
    with open(sys.argv[1]) as f:
        r = json.load(f)
    from threadpoolctl import threadpool_info
    pools = [{k: p.get(k) for k in ('internal_api', 'version', 'num_threads', 'threading_layer', 'architecture')} for p in threadpool_info()]
    with open(os.path.join(r['dir'], 'config.json')) as f:
        c = json.load(f)
    ids = r['ids']
    t = time.perf_counter()
    w = read_weights(r['dir'])
    load_ms = (time.perf_counter() - t) * 1000
    (np_attention, np_logits), np_times = timed(lambda: numpy_forward(c, w, ids), r.get('numpyCalls', 3))
    limit = sgemm(len(ids), r['matrices'])
    L = len(np_attention)
    np_attention = {0: np_attention[0], L - 1: np_attention[-1]}  # the rest freed before torch runs
    out = {'threadpools': pools, 'loadMs': load_ms,
           'numpy': {'forwardMs': min(np_times), 'firstMs': np_times[0], 'calls': len(np_times)},
           'sgemm': limit, 'finite': bool(np.isfinite(np_logits).all())}
    compare = [{'label': a['label'], **{f'layer{l}': most(np_attention[l], got) for l, got in attention_layers(a['file'], [0, L - 1]).items()}}
               for a in r.get('attention', [])]
    torch_calls = r.get('torchWarmCalls', 3)
    if torch_calls > 0:
        import torch
        tw = {k: torch.from_numpy(v) for k, v in w.items()}
        with torch.no_grad():
            _, first = timed(lambda: torch_forward(torch, c, tw, ids), 1)
            (t_attention, t_logits), warm = timed(lambda: torch_forward(torch, c, tw, ids), torch_calls)
        out['torch'] = {'forwardMs': min(warm), 'firstMs': first[0], 'threads': torch.get_num_threads(), 'version': torch.__version__}
        out['agree'] = {'logits': most(np_logits, t_logits.numpy()), 'logitScale': float(np.max(np.abs(np_logits))),
                        'attention': max(most(np_attention[l], t_attention[l].numpy()) for l in (0, L - 1))}
    out['ours'] = compare
    out['peakMB'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


if __name__ == '__main__':
    main()
