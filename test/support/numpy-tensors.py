# Writes attention files the way users' tools do (numpy's np.save / np.savez / np.savez_compressed,
# and a safetensors file by hand with struct + json, as the format defines it), plus numpy's own
# statistics and rollout for each, computed here independently of the TypeScript under test.
# Usage: python3 numpy-tensors.py DIR  → prints { case: { file, stats, rollout, ... } } as JSON.
import json, struct, sys
import numpy as np

out_dir = sys.argv[1]
rng = np.random.default_rng(12)

def attention(L, H, n, causal):
    s = rng.normal(size=(L, H, n, n)) * 2.0
    if causal:
        s = np.where(np.triu(np.ones((n, n)), 1) > 0, -np.inf, s)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    return a / a.sum(axis=-1, keepdims=True)

def head_stats(A, toks):
    n = A.shape[0]
    idx = np.arange(n)
    safe = np.where(A > 0, A, 1.0)
    ent = float((-(np.where(A > 0, A * np.log(safe), 0.0)).sum(axis=1)).mean())
    conf = float(A.max(axis=1).mean())
    dist = float((A * np.abs(idx[:, None] - idx[None, :])).sum(axis=1).mean())
    prev = float(A[idx[1:], idx[1:] - 1].mean()) if n > 1 else None
    sink = float(A[:, 0].mean())
    dup, ind = [], []
    for i in range(n):
        J = [j for j in range(i) if toks is not None and toks[j] == toks[i]]
        if J:
            dup.append(A[i, J].sum())
            ind.append(A[i, [j + 1 for j in J]].sum())
    return dict(entropy=ent, confidence=conf, distance=dist, previousToken=prev,
                duplicateToken=float(np.mean(dup)) if dup else None,
                induction=float(np.mean(ind)) if ind else None, sink=sink)

def reference(A, toks):
    L, H, n, _ = A.shape
    stats = [dict(layer=l, head=h, **head_stats(A[l, h], toks)) for l in range(L) for h in range(H)]
    R = np.eye(n)
    for l in range(L):
        Ahat = 0.5 * A[l].mean(axis=0) + 0.5 * np.eye(n)
        Ahat /= Ahat.sum(axis=1, keepdims=True)
        R = Ahat @ R
    return dict(stats=stats, rollout=R.tolist())

def safetensors(path, tensors, metadata=None):
    header, blobs, at = {}, [], 0
    for name, dtype, arr_bytes, shape in tensors:
        header[name] = dict(dtype=dtype, shape=list(shape), data_offsets=[at, at + len(arr_bytes)])
        blobs.append(arr_bytes); at += len(arr_bytes)
    if metadata is not None:
        header['__metadata__'] = metadata
    text = json.dumps(header).encode()
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text))); f.write(text)
        for b in blobs: f.write(b)

def bf16_bytes(a):
    bits = np.asarray(a, dtype='<f4').view('<u4') >> 16   # truncation: the file holds exactly these values
    return bits.astype('<u2').tobytes()

def bf16_values(a):
    return (np.asarray(a, dtype='<f4').view('<u4') & 0xffff0000).view('<f4').astype(np.float64)

cases = {}
words = ['the', 'cat', 'sat', 'on', 'mat', 'a']

# 1. One [L, H, n, n] F32 tensor in safetensors, tokens in __metadata__.
toks = [words[i % 4] for i in range(9)] + ['cat']
A = attention(2, 3, 10, causal=True).astype('<f4')
safetensors(f'{out_dir}/model.safetensors', [('attentions', 'F32', A.tobytes(), A.shape)], {'tokens': json.dumps(toks)})
cases['safetensors-f32'] = dict(file='model.safetensors', dtype='F32', tokens=toks, **reference(A.astype(np.float64), toks))

# 2. One tensor per layer (BF16, batch 1), names sorted by their layer number: 10 comes after 2.
A = attention(11, 2, 6, causal=False)
toks = ['x', 'y', 'x', 'y', 'x', 'z']
layers = [(f'model.layers.{l}.attention', 'BF16', bf16_bytes(A[l])[:], (1, 2, 6, 6)) for l in range(11)]
rng.shuffle(layers)
safetensors(f'{out_dir}/per-layer.safetensors', layers, {'tokens': json.dumps(toks)})
cases['safetensors-bf16-per-layer'] = dict(file='per-layer.safetensors', dtype='BF16', tokens=toks, **reference(bf16_values(A), toks))

# 3. .npy F16 [H, n, n] with a sidecar tokens file.
A = attention(1, 4, 7, causal=True)[0].astype('<f2')
toks = ['<s>', 'A', 'B', 'C', 'A', 'B', 'C']
np.save(f'{out_dir}/heads.npy', A)
json.dump(toks, open(f'{out_dir}/heads.tokens.json', 'w'))
cases['npy-f16'] = dict(file='heads.npy', dtype='F16', tokens=toks, **reference(A.astype(np.float64)[None], toks))

# 4. .npy F64 [n, n], no tokens.
A = attention(1, 1, 5, causal=False)[0, 0]
np.save(f'{out_dir}/one.npy', A)
cases['npy-f64'] = dict(file='one.npy', dtype='F64', tokens=[], **reference(A[None, None], None))

# 5. .npz (stored) one array per layer, arr_0 … arr_11 (arr_10 after arr_2), F32.
A = attention(12, 2, 4, causal=True).astype('<f4')
np.savez(f'{out_dir}/layers.npz', *[A[l] for l in range(12)])
cases['npz-stored'] = dict(file='layers.npz', dtype='F32', tokens=[], **reference(A.astype(np.float64), None))

# 6. .npz compressed, one [1, L, H, n, n] array (a batch of 1), tokens in a sidecar.
A = attention(3, 2, 8, causal=False).astype('<f8')
toks = [words[i % 3] for i in range(8)]
np.savez_compressed(f'{out_dir}/packed.npz', attentions=A[None])
json.dump(toks, open(f'{out_dir}/packed.tokens.json', 'w'))
cases['npz-deflated'] = dict(file='packed.npz', dtype='F64', tokens=toks, **reference(A, toks))

# 7. The repo's helper (scripts/save_attention.py) on Hugging Face-shaped layers: [1, heads, n, n] each.
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from save_attention import save_attention
A = attention(4, 3, 9, causal=True)
toks = ['<s>', 'Mr', 'D', 'urs', 'ley', 'Mr', 'D', 'urs', 'ley']
save_attention(f'{out_dir}/helper.safetensors', [A[l][None] for l in range(4)], toks)
cases['helper'] = dict(file='helper.safetensors', dtype='F32', tokens=toks, **reference(A.astype('<f4').astype(np.float64), toks))

# Every half float: the bits as <u2 and numpy's values as <f8.
bits = np.arange(65536, dtype='<u2')
np.save(f'{out_dir}/all-f16.npy', bits.view('<f2'))
np.save(f'{out_dir}/all-f16-values.npy', bits.view('<f2').astype('<f8'))
with np.errstate(invalid='ignore'):
    np.save(f'{out_dir}/all-bf16-values.npy', (bits.astype('<u4') << 16).view('<f4').astype('<f8'))
safetensors(f'{out_dir}/all-bf16.safetensors', [('bits', 'BF16', bits.tobytes(), (65536,))])

# Files for the error cases that numpy writes itself.
np.save(f'{out_dir}/fortran.npy', np.asfortranarray(attention(1, 1, 3, False)[0, 0]))
np.save(f'{out_dir}/big-endian.npy', attention(1, 1, 3, False)[0, 0].astype('>f4'))
np.save(f'{out_dir}/ints.npy', np.eye(3, dtype='<i4'))
np.save(f'{out_dir}/not-square.npy', np.full((2, 3, 4), 0.25))
scores = rng.normal(size=(2, 4, 4))
np.save(f'{out_dir}/scores.npy', scores)
nan = attention(1, 2, 4, False)[0]; nan[1, 2, 3] = np.nan
np.save(f'{out_dir}/nan.npy', nan)
np.save(f'{out_dir}/batch2.npy', attention(2, 2, 3, False)[None].repeat(2, axis=0))

print(json.dumps(cases))
