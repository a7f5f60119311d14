"""An independent forward pass of GPT-2, Llama and Qwen2 checkpoints in PyTorch (float32), written from
the architectures' published definitions (no transformers library), and a generator of tiny random
checkpoints in Hugging Face's folder layout for each architecture and layout the runner reads.
The runner's own forward pass (src/core/checkpoint) is tested against this one to 1e-4.

  python3 torch_forward.py generate ROOT        writes ROOT/<case>/ for every case; prints the cases as JSON
  python3 torch_forward.py forward REQUEST.json  REQUEST = [{ "dir", "ids" }]; prints
                                                 [{ "attention": [layer][head][query][key], "probs": [vocab] }]
  python3 torch_forward.py bench DIR IDS.json    times a float32 forward returning every attention weight

Safetensors files are written and read by hand (8-byte header size, JSON header, data)."""
import json
import math
import os
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from gpt2_bytes import bytes_to_unicode  # noqa: E402 (scripts/gpt2_bytes.py)

# ---------------------------------------------------------------- safetensors by hand

def write_safetensors(path, tensors, dtype):
    """tensors: {name: float32 ndarray}; dtype F32, F16 or BF16 for every tensor."""
    header, blobs, at = {}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype=np.float32)
        if dtype == 'F32':
            raw = a.astype('<f4').tobytes()
        elif dtype == 'F16':
            raw = a.astype('<f2').tobytes()
        else:  # BF16: the top 16 bits of the float32, rounded to nearest even
            bits = a.view(np.uint32).astype(np.uint64)
            rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype('<u2')
            raw = rounded.tobytes()
        header[name] = {'dtype': dtype, 'shape': list(a.shape), 'data_offsets': [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    text = json.dumps(header).encode()
    text += b' ' * ((8 - len(text) % 8) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def read_safetensors(path):
    with open(path, 'rb') as f:
        data = f.read()
    (size,) = struct.unpack('<Q', data[:8])
    header = json.loads(data[8:8 + size])
    out = {}
    for name, entry in header.items():
        if name == '__metadata__':
            continue
        begin, end = entry['data_offsets']
        raw = data[8 + size + begin:8 + size + end]
        if entry['dtype'] == 'F32':
            a = np.frombuffer(raw, dtype='<f4').astype(np.float32)
        elif entry['dtype'] == 'F16':
            a = np.frombuffer(raw, dtype='<f2').astype(np.float32)
        elif entry['dtype'] == 'BF16':
            a = (np.frombuffer(raw, dtype='<u2').astype(np.uint32) << 16).view(np.float32)
        else:
            raise ValueError(entry['dtype'])
        out[name] = a.reshape(entry['shape'])
    return out


def read_weights(folder):
    index = os.path.join(folder, 'model.safetensors.index.json')
    if os.path.exists(index):
        with open(index) as f:
            shards = sorted(set(json.load(f)['weight_map'].values()))
        weights = {}
        for s in shards:
            weights.update(read_safetensors(os.path.join(folder, s)))
        return weights
    return read_safetensors(os.path.join(folder, 'model.safetensors'))

# ---------------------------------------------------------------- a byte-level BPE vocabulary

def byte_level_vocab(merge_count, corpus):
    """256 byte tokens, then `merge_count` merges learnt greedily from `corpus` (its most frequent pairs)."""
    chars = bytes_to_unicode()
    vocab = {chars[b]: b for b in range(256)}
    words = [[chars[b] for b in (' ' + w if i else w).encode()] for i, w in enumerate(corpus.split(' '))]
    merges = []
    while len(merges) < merge_count:
        counts = {}
        for w in words:
            for a, b in zip(w, w[1:]):
                counts[(a, b)] = counts.get((a, b), 0) + 1
        if not counts:
            break
        (a, b), _ = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        merges.append((a, b))
        vocab[a + b] = len(vocab)
        for w in words:
            i = 0
            while i < len(w) - 1:
                if w[i] == a and w[i + 1] == b:
                    w[i:i + 2] = [a + b]
                i += 1
    return vocab, merges


def synthetic_vocab(size):
    """A GPT-2-sized vocabulary without a corpus: 256 bytes, then two-character merges of letters and Ġ."""
    chars = bytes_to_unicode()
    vocab = {chars[b]: b for b in range(256)}
    merges = []
    letters = [chars[b] for b in range(256) if chr(b).isalpha() and b < 128] + [chars[32]]
    singles = [chars[b] for b in range(256)]
    for a in letters + singles:
        for b in singles:
            if len(vocab) >= size - 1:
                break
            if a + b in vocab:
                continue
            merges.append((a, b))
            vocab[a + b] = len(vocab)
    vocab['<|endoftext|>'] = len(vocab)
    return vocab, merges


def tokenizer_json(vocab, merges):
    return {
        'version': '1.0',
        'added_tokens': [],
        'normalizer': None,
        'pre_tokenizer': {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': True, 'use_regex': True},
        'post_processor': None,
        'decoder': {'type': 'ByteLevel', 'add_prefix_space': True, 'trim_offsets': True, 'use_regex': True},
        'model': {'type': 'BPE', 'dropout': None, 'unk_token': None, 'continuing_subword_prefix': None,
                  'end_of_word_suffix': None, 'fuse_unk': False, 'byte_fallback': False,
                  'vocab': vocab, 'merges': [f'{a} {b}' for a, b in merges]},
    }

# ---------------------------------------------------------------- tiny random checkpoints

CORPUS = ('the cat sat on the mat. the cat ate the rat. a mouse ran to the house; the dog sat in the fog. '
          'attention is what the head reads: keys, queries and values.')
VOCAB = 300


def gpt2_tensors(rng, c, prefix='', lm_head=False, buffers=False):
    E, F, V, P = c['n_embd'], c.get('n_inner') or 4 * c['n_embd'], c['vocab_size'], c['n_positions']
    r = lambda *shape, s=0.2: (rng.standard_normal(shape) * s).astype(np.float32)
    t = {f'{prefix}wte.weight': r(V, E), f'{prefix}wpe.weight': r(P, E, s=0.1),
         f'{prefix}ln_f.weight': 1 + r(E, s=0.1), f'{prefix}ln_f.bias': r(E, s=0.1)}
    for i in range(c['n_layer']):
        p = f'{prefix}h.{i}.'
        t.update({p + 'ln_1.weight': 1 + r(E, s=0.1), p + 'ln_1.bias': r(E, s=0.1),
                  p + 'attn.c_attn.weight': r(E, 3 * E, s=0.5), p + 'attn.c_attn.bias': r(3 * E, s=0.1),
                  p + 'attn.c_proj.weight': r(E, E), p + 'attn.c_proj.bias': r(E, s=0.1),
                  p + 'ln_2.weight': 1 + r(E, s=0.1), p + 'ln_2.bias': r(E, s=0.1),
                  p + 'mlp.c_fc.weight': r(E, F), p + 'mlp.c_fc.bias': r(F, s=0.1),
                  p + 'mlp.c_proj.weight': r(F, E), p + 'mlp.c_proj.bias': r(E, s=0.1)})
        if buffers:
            P_ = c['n_positions']
            t[p + 'attn.bias'] = np.tril(np.ones((P_, P_), dtype=np.float32)).reshape(1, 1, P_, P_)
            t[p + 'attn.masked_bias'] = np.array(-1e4, dtype=np.float32)
    if lm_head:
        t['lm_head.weight'] = r(V, E)
    return t


def llama_tensors(rng, c, biases=False):
    E, F, V = c['hidden_size'], c['intermediate_size'], c['vocab_size']
    H, KV = c['num_attention_heads'], c.get('num_key_value_heads', c['num_attention_heads'])
    D = c.get('head_dim') or E // H
    r = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    t = {'model.embed_tokens.weight': r(V, E, s=1.0), 'model.norm.weight': 1 + r(E, s=0.1)}
    if not c.get('tie_word_embeddings', False):
        t['lm_head.weight'] = r(V, E)
    for i in range(c['num_hidden_layers']):
        p = f'model.layers.{i}.'
        t.update({p + 'input_layernorm.weight': 1 + r(E, s=0.1), p + 'post_attention_layernorm.weight': 1 + r(E, s=0.1),
                  p + 'self_attn.q_proj.weight': r(H * D, E, s=0.5), p + 'self_attn.k_proj.weight': r(KV * D, E, s=0.5),
                  p + 'self_attn.v_proj.weight': r(KV * D, E), p + 'self_attn.o_proj.weight': r(E, H * D),
                  p + 'mlp.gate_proj.weight': r(F, E), p + 'mlp.up_proj.weight': r(F, E), p + 'mlp.down_proj.weight': r(E, F),
                  p + 'self_attn.rotary_emb.inv_freq': r(D // 2)})
        if biases:
            t.update({p + 'self_attn.q_proj.bias': r(H * D, s=0.2), p + 'self_attn.k_proj.bias': r(KV * D, s=0.2),
                      p + 'self_attn.v_proj.bias': r(KV * D, s=0.2)})
    return t


def write_case(folder, config, tensors, dtype, tokenizer='json', shards=1):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'config.json'), 'w') as f:
        json.dump(config, f, indent=2)
    if shards == 1:
        write_safetensors(os.path.join(folder, 'model.safetensors'), tensors, dtype)
    else:
        names = sorted(tensors)
        weight_map = {}
        for s in range(shards):
            file = f'model-{s + 1:05d}-of-{shards:05d}.safetensors'
            part = {n: tensors[n] for n in names[s::shards]}
            write_safetensors(os.path.join(folder, file), part, dtype)
            weight_map.update({n: file for n in part})
        with open(os.path.join(folder, 'model.safetensors.index.json'), 'w') as f:
            json.dump({'metadata': {'total_size': 0}, 'weight_map': weight_map}, f, indent=2)
    vocab, merges = byte_level_vocab(VOCAB - 256, CORPUS)
    if tokenizer == 'json':
        with open(os.path.join(folder, 'tokenizer.json'), 'w', encoding='utf-8') as f:
            json.dump(tokenizer_json(vocab, merges), f, ensure_ascii=False)
    elif tokenizer == 'vocab':
        with open(os.path.join(folder, 'vocab.json'), 'w', encoding='utf-8') as f:
            json.dump(vocab, f, ensure_ascii=False)
        with open(os.path.join(folder, 'merges.txt'), 'w', encoding='utf-8') as f:
            f.write('#version: 0.2\n' + ''.join(f'{a} {b}\n' for a, b in merges))


def generate(root):
    rng = np.random.default_rng(21)
    gpt2 = {'model_type': 'gpt2', 'n_embd': 16, 'n_head': 4, 'n_layer': 2, 'n_positions': 64, 'vocab_size': VOCAB,
            'layer_norm_epsilon': 1e-5, 'activation_function': 'gelu_new'}
    llama = {'model_type': 'llama', 'hidden_size': 16, 'num_attention_heads': 4, 'num_key_value_heads': 4,
             'intermediate_size': 40, 'num_hidden_layers': 2, 'rms_norm_eps': 1e-6, 'rope_theta': 10000.0,
             'max_position_embeddings': 64, 'vocab_size': VOCAB, 'tie_word_embeddings': False, 'hidden_act': 'silu'}
    gqa = {**llama, 'num_key_value_heads': 2, 'head_dim': 8, 'rope_theta': 500.0, 'num_hidden_layers': 3}
    qwen2 = {**llama, 'model_type': 'qwen2', 'num_key_value_heads': 2, 'tie_word_embeddings': True, 'rope_theta': 1000000.0}
    cases = {
        'gpt2-plain': (gpt2, gpt2_tensors(rng, gpt2), 'F32', 'json', 1),
        'gpt2-prefix': (gpt2, gpt2_tensors(rng, gpt2, 'transformer.', lm_head=True, buffers=True), 'F16', 'json', 1),
        'gpt2-vocab': (gpt2, gpt2_tensors(rng, gpt2), 'BF16', 'vocab', 1),
        'llama-mha': (llama, llama_tensors(rng, llama), 'F32', 'json', 1),
        'llama-gqa': (gqa, llama_tensors(rng, gqa), 'BF16', 'json', 3),
        'qwen2': (qwen2, llama_tensors(rng, qwen2, biases=True), 'F16', 'json', 2),
    }
    for name, (config, tensors, dtype, tokenizer, shards) in cases.items():
        write_case(os.path.join(root, name), config, tensors, dtype, tokenizer, shards)
    print(json.dumps(sorted(cases)))

# ---------------------------------------------------------------- the forward pass

def load(folder):
    """The config and every tensor as a float32 torch tensor."""
    import torch
    with open(os.path.join(folder, 'config.json')) as f:
        c = json.load(f)
    return c, {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in read_weights(folder).items()}


def serve(generate, run):
    """A family module's command line: `generate ROOT` writes its cases; `forward REQUEST.json` prints,
    for each request { "dir", "ids", ... }, run(request) = (attention per layer, probs) as JSON."""
    command = sys.argv[1]
    if command == 'generate':
        generate(sys.argv[2])
    elif command == 'forward':
        with open(sys.argv[2]) as f:
            request = json.load(f)
        out = []
        for r in request:
            attention, probs = run(r)
            out.append({'attention': [a.tolist() for a in attention], 'probs': probs.tolist()})
        print(json.dumps(out))
    else:
        raise SystemExit(f'unknown command {command}')


def forward(c, w, ids, folder=None):
    """Every layer's attention weights [layers][heads, n, n] and the last position's softmax, float32."""
    import torch
    if c['model_type'] in ('gemma', 'gemma2', 'gemma3_text', 'gemma3'):  # families/gemma.py, in float64
        from families import gemma
        return gemma.forward(c, w, ids, gemma.embed_dtype(folder) if folder else 'F32')
    if c['model_type'] in ('bert', 'roberta', 'distilbert'):  # the encoders: families/bert.py, the head at the last position
        from families.bert import forward as encoder
        attention, guesses = encoder(c, w, ids, [len(ids) - 1], torch.float32)
        return attention, None if guesses is None else guesses[0]
    if c['model_type'] in ('phi3', 'gpt_neox'):  # their reference is families/phi_neox.py
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'families'))
        import phi_neox
        return phi_neox.forward(c, w, ids, 'float32')
    from families.rotary import handles as rotary_handles, forward as rotary  # scaled RoPE, sliding windows, qwen3
    if rotary_handles(c):
        return rotary(c, w, ids, torch.float32)
    ids = torch.tensor(ids, dtype=torch.long)
    n = len(ids)
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    attention = []

    def attend(q, k, v, heads, kv_heads, d):
        # q [n, heads·d], k and v [n, kv_heads·d] → heads' outputs [n, heads·d]; weights kept per query head
        q = q.view(n, heads, d).transpose(0, 1)
        k = k.view(n, kv_heads, d).transpose(0, 1).repeat_interleave(heads // kv_heads, dim=0)
        v = v.view(n, kv_heads, d).transpose(0, 1).repeat_interleave(heads // kv_heads, dim=0)
        scores = q @ k.transpose(1, 2) / math.sqrt(d)
        scores = scores.masked_fill(~causal, torch.finfo(torch.float32).min)
        weights = torch.softmax(scores, dim=-1)
        attention.append(weights)
        return (weights @ v).transpose(0, 1).reshape(n, heads * d)

    if c['model_type'] == 'gpt2':
        p = 'transformer.' if 'transformer.wte.weight' in w else ''
        E, H = c['n_embd'], c['n_head']
        ln = lambda x, name: torch.nn.functional.layer_norm(x, (E,), w[name + '.weight'], w[name + '.bias'], c.get('layer_norm_epsilon', 1e-5))
        gelu = lambda x: 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
        x = w[p + 'wte.weight'][ids] + w[p + 'wpe.weight'][:n]
        for i in range(c['n_layer']):
            l = f'{p}h.{i}.'
            h = ln(x, l + 'ln_1')
            qkv = h @ w[l + 'attn.c_attn.weight'] + w[l + 'attn.c_attn.bias']
            q, k, v = qkv.split(E, dim=1)
            x = x + attend(q, k, v, H, H, E // H) @ w[l + 'attn.c_proj.weight'] + w[l + 'attn.c_proj.bias']
            h = ln(x, l + 'ln_2')
            x = x + gelu(h @ w[l + 'mlp.c_fc.weight'] + w[l + 'mlp.c_fc.bias']) @ w[l + 'mlp.c_proj.weight'] + w[l + 'mlp.c_proj.bias']
        x = ln(x, p + 'ln_f')
        head = w['lm_head.weight'] if 'lm_head.weight' in w else w[p + 'wte.weight']
    else:
        E, H = c['hidden_size'], c['num_attention_heads']
        KV = c.get('num_key_value_heads') or H
        D = c.get('head_dim') or E // H
        eps, theta = c.get('rms_norm_eps', 1e-6), c.get('rope_theta', 10000.0)
        rms = lambda x, name: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w[name]
        inv_freq = 1.0 / (theta ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
        angles = torch.arange(n, dtype=torch.float32)[:, None] * inv_freq[None, :]
        angles = torch.cat([angles, angles], dim=-1)
        cos, sin = angles.cos(), angles.sin()

        def rope(t, heads):
            t = t.view(n, heads, D)
            half = torch.cat([-t[..., D // 2:], t[..., :D // 2]], dim=-1)
            return (t * cos[:, None, :] + half * sin[:, None, :]).reshape(n, heads * D)

        linear = lambda x, name: x @ w[name + '.weight'].T + (w[name + '.bias'] if name + '.bias' in w else 0)
        x = w['model.embed_tokens.weight'][ids]
        for i in range(c['num_hidden_layers']):
            l = f'model.layers.{i}.'
            h = rms(x, l + 'input_layernorm.weight')
            q = rope(linear(h, l + 'self_attn.q_proj'), H)
            k = rope(linear(h, l + 'self_attn.k_proj'), KV)
            v = linear(h, l + 'self_attn.v_proj')
            x = x + linear(attend(q, k, v, H, KV, D), l + 'self_attn.o_proj')
            h = rms(x, l + 'post_attention_layernorm.weight')
            x = x + linear(torch.nn.functional.silu(linear(h, l + 'mlp.gate_proj')) * linear(h, l + 'mlp.up_proj'), l + 'mlp.down_proj')
        x = rms(x, 'model.norm.weight')
        head = w['model.embed_tokens.weight'] if c.get('tie_word_embeddings', False) else w['lm_head.weight']
    probs = torch.softmax(x[-1] @ head.T, dim=-1)
    return attention, probs


def main():
    command = sys.argv[1]
    if command in ('generate', 'forward'):
        serve(generate, lambda r: forward(*load(r['dir']), r['ids'], r['dir']))
    elif command == 'bench':
        import torch
        with open(sys.argv[3]) as f:
            ids = json.load(f)
        torch.set_num_threads(int(os.environ.get('BENCH_THREADS', '0')) or torch.get_num_threads())
        t0 = time.perf_counter()
        c, w = load(sys.argv[2])
        load_ms = (time.perf_counter() - t0) * 1000
        times = []
        for _ in range(2):
            t = time.perf_counter()
            with torch.no_grad():
                forward(c, w, ids)
            times.append((time.perf_counter() - t) * 1000)
        import resource
        print(json.dumps({'loadMs': load_ms, 'forwardMs': min(times),
                          'peakMB': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                          'threads': torch.get_num_threads()}))
    elif command == 'synthetic-tokenizer':
        vocab, merges = synthetic_vocab(int(sys.argv[3]))
        with open(sys.argv[2], 'w', encoding='utf-8') as f:
            json.dump(tokenizer_json(vocab, merges), f, ensure_ascii=False)
    else:
        raise SystemExit(f'unknown command {command}')


if __name__ == '__main__':
    main()
