"""An independent PyTorch reference for what `attn run` computes beside the attention pattern:
value-weighted norms, the logit lens, direct logit attribution, head ablation, activation patching
and greedy generation, in float32 or float64 (chosen per request), written from the definitions
(no transformers library). It runs every decoder family the other references do (gpt2, llama,
qwen2, qwen3, mistral, scaled RoPE; phi3, gpt_neox; gemma 1, 2, 3) through one hooked forward pass
built from their helpers (torch_forward.py, families/*.py), and the encoders (bert, roberta,
distilbert: only the norms, they predict no next token). `check` proves the hooked pass is the
families' own forward (every attention weight and next-token p).

  python3 analyses.py check REQUEST.json   REQUEST = [{ "dir", "ids", "dtype" }]; prints, per request,
                                           { "weight", "p" }: the largest differences from the family's forward
  python3 analyses.py analyze REQUEST.json REQUEST = [{ "dir", "ids", "dtype": "float32" | "float64",
      "norms": true, "logitLens": true, "target": id, "contrast": id | null, "ablate": [[layer, head]],
      "ablation": "zero" | "mean", "patchFrom": [ids], "generate": N }] (each key optional; layers and
      heads from 0); prints per request the keys asked, shaped as attn run --json prints them:
      "norms" [layer][head][query][key] (and "valueNorms" [layer][head][key]: ||v_j W_O^h||);
      "logitLens" [layer][position] → five { id, p };
      "attribution" { target, contrast, heads [layer][head], attentionBias [layer], mlps [layer], embed,
      normBias, headBias?, total, direct (the pre-cap logit difference computed from the logits),
      residualError (how far the parts' vectors miss the residual stream they split), logitScale (the
      largest of 1, the target's and contrast's |logit| and every |part|: what float32 rounds relative to) };
      "ablation" { next: five { id, p }, logitDiff, baseLogitDiff, target (without one asked: the
      unablated run's top next token, its raw logit), logitScale }; "patching" [layer][head] (null where
      m_clean = m_corrupted), "mClean", "mCorrupted", "patchingScale" (the runs' logitScale);
      "generated" [ids], "attention" (of prompt + generated); and always "next" (five { id, p }) and
      "logits" at the last position (the model's real logits, capped where the family caps).

Definitions (row vectors; a head's output z_h = sum_j alpha_ij v_j, v_j = x_j W_V^h + b_V^h with x_j
the normed input the layer reads and, under grouped-query attention, W_V of h's key/value head):
  norms[l][h][i][j] = ||alpha_ij v_j W_O^h||_2, W_O^h the rows of the output projection z_h meets (no bias)
  logit lens: the residual stream after layer l at every position through the final norm and the head
      (and the final softcap where the family has one, so the last layer is the model's own prediction)
  attribution at the last position: residual = embed + sum_l (sum_h part_lh + bias_l + mlp_l), where
      part_lh = z_h W_O^h, or for the sandwich norm after attention (Gemma 2/3) that norm applied to
      z_h W_O^h with the scale of the real attention output frozen; mlp_l is what the MLP adds (after its
      sandwich norm, as the run applies it). Each part p through the final norm with the run's scale s
      frozen: LayerNorm (p - mean p) / s * w, RMSNorm p / s * w (Gemma: 1 + w); the norm's bias is a part
      (normBias) and an output head's bias too (headBias); each dotted with W_U[target] - W_U[contrast]
      (W_U[target] without a contrast). The parts add up to the pre-softcap logit difference.
  ablation: the run again, each listed head's z replaced by 0 (zero) or by its mean over the positions
      of that same ablated run (mean); logit differences from the real (capped) logits.
  patching[l][h] = (m_patched - m_corrupted) / (m_clean - m_corrupted), m the target - contrast logit
      difference at the last position, the corrupted run (patchFrom's ids) with z_h of layer l at every
      position taken from the clean run.
  generation: N greedy steps (argmax of the last position's logits, the first on a tie), each a whole
      forward over the ids so far (what kept keys and values must equal)."""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'families'))
import torch_forward as base  # noqa: E402
from families import gemma as gemma_family  # noqa: E402
from families import rotary as rotary_family  # noqa: E402
from families import bert as bert_family  # noqa: E402

GEMMAS = gemma_family.FAMILIES
ENCODERS = bert_family.ENCODERS


class Decoder:
    """A decoder checkpoint in one dtype, run layer by layer with a hook on every head's output."""

    def __init__(self, c, w, dtype, folder):
        import torch
        self.torch = torch
        self.dtype = dtype
        if c['model_type'] in GEMMAS:
            c, w = gemma_family.text_model(c, w)
        self.c = c
        self.w = {k: v.to(dtype) for k, v in w.items()}
        self.kind = kind = c['model_type']
        self.folder = folder
        if kind == 'gpt2':
            self.p = 'transformer.' if 'transformer.wte.weight' in self.w else ''
            self.E, self.H = c['n_embd'], c['n_head']
            self.KV, self.D, self.L = self.H, self.E // self.H, c['n_layer']
        elif kind == 'gpt_neox':
            self.E, self.H, self.L = c['hidden_size'], c['num_attention_heads'], c['num_hidden_layers']
            self.KV, self.D = self.H, self.E // self.H
        else:
            self.E, self.H, self.L = c['hidden_size'], c['num_attention_heads'], c['num_hidden_layers']
            self.KV = c.get('num_key_value_heads') or self.H
            self.D = c.get('head_dim') or (256 if kind in GEMMAS else self.E // self.H)
        self.sandwich = kind in GEMMAS and kind != 'gemma'
        self.layer_norm = kind in ('gpt2', 'gpt_neox')
        self.final_cap = None
        if kind == 'gemma2':
            self.final_cap = c.get('final_logit_softcapping', 30.0)
        elif kind in GEMMAS and kind != 'gemma':
            self.final_cap = c.get('final_logit_softcapping')

    # ------------------------------------------------------------ weights by role

    def eps(self):
        c = self.c
        if self.kind == 'gpt2':
            return c.get('layer_norm_epsilon', 1e-5)
        if self.kind == 'gpt_neox':
            return c.get('layer_norm_eps', 1e-5)
        return c.get('rms_norm_eps', 1e-6)

    def norm_weights(self, name):
        """(weight, bias or None) of a norm by its full name, Gemma's 1 + w applied."""
        w = self.w
        if self.layer_norm:
            return w[name + '.weight'], w[name + '.bias']
        weight = w[name + '.weight'] if name + '.weight' in w else w[name]
        return (1.0 + weight if self.kind in GEMMAS else weight), None

    def scale(self, x):
        """The norm's divisor per row: sqrt(var + eps) (LayerNorm) or sqrt(mean x^2 + eps) (RMSNorm)."""
        torch = self.torch
        if self.layer_norm:
            return torch.sqrt(x.var(-1, unbiased=False, keepdim=True) + self.eps())
        return torch.sqrt(x.pow(2).mean(-1, keepdim=True) + self.eps())

    def frozen(self, p, s, name):
        """A norm applied to p with the divisor s frozen; its bias left out."""
        weight, _ = self.norm_weights(name)
        if self.layer_norm:
            p = p - p.mean(-1, keepdim=True)
        return p / s * weight

    def norm(self, x, name):
        weight, bias = self.norm_weights(name)
        y = self.frozen(x, self.scale(x), name)
        return y if bias is None else y + bias

    def linear(self, x, name):
        w = self.w
        return x @ w[name + '.weight'].T + (w[name + '.bias'] if name + '.bias' in w else 0)

    def final_norm_name(self):
        if self.kind == 'gpt2':
            return self.p + 'ln_f'
        return 'gpt_neox.final_layer_norm' if self.kind == 'gpt_neox' else 'model.norm'

    def unembed(self):
        """(W_U [vocab, E], its bias or None)."""
        w, c = self.w, self.c
        if self.kind == 'gpt2':
            head = w['lm_head.weight'] if 'lm_head.weight' in w else w[self.p + 'wte.weight']
        elif self.kind == 'gpt_neox':
            head = w['gpt_neox.embed_in.weight'] if c.get('tie_word_embeddings', False) else w['embed_out.weight']
        elif self.kind in GEMMAS:
            head = w['lm_head.weight'] if 'lm_head.weight' in w else w['model.embed_tokens.weight']
        else:
            head = w['model.embed_tokens.weight'] if c.get('tie_word_embeddings', False) else w['lm_head.weight']
        bias = w.get('lm_head.bias', w.get('embed_out.bias'))
        return head, bias

    def layer_names(self, i):
        if self.kind == 'gpt2':
            return f'{self.p}h.{i}.'
        if self.kind == 'gpt_neox':
            return f'gpt_neox.layers.{i}.'
        return f'model.layers.{i}.'

    def output_projection(self, i):
        """(W_O as [heads·D, E] so that z W_O is the attention output, its bias or None)."""
        l, w = self.layer_names(i), self.w
        if self.kind == 'gpt2':
            return w[l + 'attn.c_proj.weight'], w[l + 'attn.c_proj.bias']
        name = l + ('attention.dense' if self.kind == 'gpt_neox' else 'self_attn.o_proj')
        return w[name + '.weight'].T, w.get(name + '.bias')

    # ------------------------------------------------------------ positions

    def layer_plan(self, n):
        """Per layer: (window or None, inverse frequencies [dims/2] or None, rotated dims)."""
        torch, c, D = self.torch, self.c, self.D
        if self.kind == 'gpt2':
            return [(None, None, 0)] * self.L
        if self.kind in GEMMAS:
            out = []
            for window, theta, factor in gemma_family.layer_kinds(c):
                inv = 1.0 / (theta ** (torch.arange(0, D, 2, dtype=torch.float64) / D)) / factor
                out.append((window, inv, D))
            return out
        if self.kind in ('phi3', 'gpt_neox'):
            params = c.get('rope_parameters') or {}
            if self.kind == 'phi3':
                theta = params.get('rope_theta', c.get('rope_theta', 10000.0))
                dims = int(D * params.get('partial_rotary_factor', c.get('partial_rotary_factor', 1.0)))
                window = c.get('sliding_window')
            else:
                theta = params.get('rope_theta', c.get('rotary_emb_base', 10000))
                dims = int(D * params.get('partial_rotary_factor', c.get('rotary_pct', 0.25)))
                window = None
            inv = 1.0 / (theta ** (torch.arange(0, dims, 2, dtype=torch.float64) / dims))
            return [(window, inv, dims)] * self.L
        inv = torch.tensor(rotary_family.frequencies(c, D, n), dtype=torch.float64)
        return [(W, inv, D) for W in rotary_family.windows(c)]

    def rope(self, t, inv, dims):
        """Rotate-half RoPE on the first `dims` of each head of t [n, heads, D]."""
        torch = self.torch
        if inv is None:
            return t
        n = t.shape[0]
        angles = torch.arange(n, dtype=torch.float64)[:, None] * inv[None, :]
        angles = torch.cat([angles, angles], dim=-1).to(self.dtype)
        cos, sin = angles.cos()[:, None, :], angles.sin()[:, None, :]
        rot, rest = t[..., :dims], t[..., dims:]
        half = torch.cat([-rot[..., dims // 2:], rot[..., :dims // 2]], dim=-1)
        return torch.cat([rot * cos + half * sin, rest], dim=-1)

    # ------------------------------------------------------------ the pass

    def embed(self, ids):
        torch, w = self.torch, self.w
        t = torch.tensor(ids, dtype=torch.long)
        if self.kind == 'gpt2':
            return w[self.p + 'wte.weight'][t] + w[self.p + 'wpe.weight'][:len(ids)]
        if self.kind == 'gpt_neox':
            return w['gpt_neox.embed_in.weight'][t]
        x = w['model.embed_tokens.weight'][t]
        if self.kind in GEMMAS:
            stored = gemma_family.embed_dtype(self.folder) if self.folder else 'F32'
            to = {'F32': torch.float32, 'F16': torch.float16, 'BF16': torch.bfloat16, 'F64': torch.float64}[stored]
            x = x * torch.tensor(self.E ** 0.5, dtype=torch.float32).to(to).to(self.dtype)
        return x

    def qkv(self, h, l):
        """q [n, H, D], k and v [n, KV, D] (v with its bias)."""
        n, H, KV, D = h.shape[0], self.H, self.KV, self.D
        if self.kind == 'gpt2':
            q, k, v = (h @ self.w[l + 'attn.c_attn.weight'] + self.w[l + 'attn.c_attn.bias']).split(self.E, dim=1)
        elif self.kind == 'gpt_neox':
            qkv = self.linear(h, l + 'attention.query_key_value').reshape(n, H, 3 * D)
            q, k, v = (qkv[..., r * D:(r + 1) * D] for r in range(3))
        elif self.kind == 'phi3':
            qkv = self.linear(h, l + 'self_attn.qkv_proj')
            q, k, v = qkv[:, :H * D], qkv[:, H * D:(H + KV) * D], qkv[:, (H + KV) * D:]
        else:
            q, k, v = (self.linear(h, l + 'self_attn.' + s) for s in ('q_proj', 'k_proj', 'v_proj'))
        return q.reshape(n, H, D), k.reshape(n, KV, D), v.reshape(n, KV, D)

    def mlp(self, h, l):
        torch = self.torch
        if self.kind == 'gpt2':
            gelu = lambda x: 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
            return gelu(h @ self.w[l + 'mlp.c_fc.weight'] + self.w[l + 'mlp.c_fc.bias']) @ self.w[l + 'mlp.c_proj.weight'] + self.w[l + 'mlp.c_proj.bias']
        if self.kind == 'gpt_neox':
            return self.linear(torch.nn.functional.gelu(self.linear(h, l + 'mlp.dense_h_to_4h')), l + 'mlp.dense_4h_to_h')
        if self.kind == 'phi3':
            gate, up = self.linear(h, l + 'mlp.gate_up_proj').chunk(2, dim=-1)
            return self.linear(up * torch.nn.functional.silu(gate), l + 'mlp.down_proj')
        if self.kind in GEMMAS:
            gelu = lambda x: 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
            return self.linear(gelu(self.linear(h, l + 'mlp.gate_proj')) * self.linear(h, l + 'mlp.up_proj'), l + 'mlp.down_proj')
        return self.linear(torch.nn.functional.silu(self.linear(h, l + 'mlp.gate_proj')) * self.linear(h, l + 'mlp.up_proj'), l + 'mlp.down_proj')

    def norm_names(self, l):
        """(norm before attention, after attention or None, before the MLP, after the MLP or None)."""
        if self.kind == 'gpt2':
            return l + 'ln_1', None, l + 'ln_2', None
        if self.kind == 'gpt_neox':
            return l + 'input_layernorm', None, l + 'post_attention_layernorm', None
        if self.sandwich:
            return (l + 'input_layernorm', l + 'post_attention_layernorm', l + 'pre_feedforward_layernorm',
                    l + 'post_feedforward_layernorm')
        return l + 'input_layernorm', None, l + 'post_attention_layernorm', None

    def run(self, ids, hook=None):
        """The forward pass over ids, recording per layer: the normed input, attention weights [H, n, n],
        values per query head [H, n, D], head outputs z [n, H, D] (after the hook), the attention output
        before its sandwich norm, that norm's divisor, what attention and the MLP add, the residual after
        the layer; then the final divisor, pre-cap and real logits at every position.
        hook(layer, z) → z replaces the heads' outputs before W_O."""
        torch = self.torch
        n, H, KV, D, kind, c = len(ids), self.H, self.KV, self.D, self.kind, self.c
        rec = {'x0': self.embed(ids), 'layers': []}
        x = rec['x0']
        positions = torch.arange(n)
        if kind in GEMMAS:
            scaling = (c.get('query_pre_attn_scalar', 256) if kind != 'gemma' else D) ** -0.5
        else:
            scaling = 1 / math.sqrt(D)
        attn_cap = c.get('attn_logit_softcapping', 50.0) if kind == 'gemma2' else None
        qk_norm = kind in ('qwen3', 'gemma3_text')
        for i, (window, inv, dims) in enumerate(self.layer_plan(n)):
            l = self.layer_names(i)
            n_in, n_post, n_pre_ff, n_post_ff = self.norm_names(l)
            h = self.norm(x, n_in)
            q, k, v = self.qkv(h, l)
            if qk_norm:
                q, k = self.norm(q, l + 'self_attn.q_norm'), self.norm(k, l + 'self_attn.k_norm')
            q, k = self.rope(q, inv, dims), self.rope(k, inv, dims)
            q = q.transpose(0, 1)
            k = k.transpose(0, 1).repeat_interleave(H // KV, dim=0)
            v = v.transpose(0, 1).repeat_interleave(H // KV, dim=0)
            scores = q @ k.transpose(1, 2) * scaling
            if attn_cap is not None:
                scores = attn_cap * torch.tanh(scores / attn_cap)
            seen = positions[None, :] <= positions[:, None]
            if window is not None:
                seen &= positions[None, :] > positions[:, None] - window
            alpha = torch.softmax(scores.masked_fill(~seen, -math.inf), dim=-1)
            z = (alpha @ v).transpose(0, 1)  # [n, H, D]
            if hook is not None:
                z = hook(i, z)
            W_O, b_O = self.output_projection(i)
            raw = z.reshape(n, H * D) @ W_O + (b_O if b_O is not None else 0)
            post_scale = None
            if n_post is not None:
                post_scale = self.scale(raw)
                attn_added = self.frozen(raw, post_scale, n_post)
            else:
                attn_added = raw
            if kind == 'gpt_neox' and c.get('use_parallel_residual', True):
                m = self.mlp(self.norm(x, n_pre_ff), l)
                x_mid = x + attn_added
            else:
                x_mid = x + attn_added
                m = self.mlp(self.norm(x_mid, n_pre_ff), l)
            mlp_added = self.norm(m, n_post_ff) if n_post_ff is not None else m
            x = x_mid + mlp_added
            rec['layers'].append({'h': h, 'alpha': alpha, 'v': v, 'z': z, 'raw': raw, 'post_scale': post_scale,
                                  'attn_added': attn_added, 'mlp_added': mlp_added, 'resid': x})
        rec['final_scale'] = self.scale(x)
        rec['pre_cap'] = self.logits(x)
        rec['logits'] = self.capped(rec['pre_cap'])
        return rec

    def logits(self, x):
        head, bias = self.unembed()
        out = self.norm(x, self.final_norm_name()) @ head.T
        return out if bias is None else out + bias

    def capped(self, logits):
        if self.final_cap is None:
            return logits
        return self.final_cap * self.torch.tanh(logits / self.final_cap)

    # ------------------------------------------------------------ the analyses

    def head_rows(self, i, h):
        """W_O^h: the D rows of the output projection head h's output meets, [D, E]."""
        W_O, _ = self.output_projection(i)
        return W_O[h * self.D:(h + 1) * self.D]

    def norms(self, rec):
        """[layer][head][query][key]: ||alpha_ij v_j W_O^h||, and [layer][head][key]: ||v_j W_O^h||."""
        out, value_norms = [], []
        for i, layer in enumerate(rec['layers']):
            vo = self.torch.stack([(layer['v'][h] @ self.head_rows(i, h)).norm(dim=-1) for h in range(self.H)])  # [H, n]
            out.append(layer['alpha'] * vo[:, None, :])
            value_norms.append(vo)
        return out, value_norms

    def lens(self, rec):
        out = []
        for layer in rec['layers']:
            probs = self.torch.softmax(self.capped(self.logits(layer['resid'])), dim=-1)
            out.append([top(row) for row in probs])
        return out

    def attribution(self, rec, target, contrast):
        torch = self.torch
        head, head_bias = self.unembed()
        d = head[target] - (head[contrast] if contrast is not None else 0)
        t = -1
        s = rec['final_scale'][t]
        name = self.final_norm_name()
        through = lambda p: float(self.frozen(p, s, name) @ d)
        heads, biases, mlps, parts = [], [], [], []
        for i, layer in enumerate(rec['layers']):
            row = []
            for h in range(self.H):
                p = layer['z'][t, h] @ self.head_rows(i, h)
                if layer['post_scale'] is not None:
                    p = self.frozen(p, layer['post_scale'][t], self.norm_names(self.layer_names(i))[1])
                parts.append(p)
                row.append(through(p))
            heads.append(row)
            _, b_O = self.output_projection(i)
            b = b_O if b_O is not None else torch.zeros(self.E, dtype=self.dtype)
            if layer['post_scale'] is not None:
                b = self.frozen(b, layer['post_scale'][t], self.norm_names(self.layer_names(i))[1])
            parts.append(b)
            biases.append(through(b))
            parts.append(layer['mlp_added'][t])
            mlps.append(through(layer['mlp_added'][t]))
        parts.append(rec['x0'][t])
        _, norm_bias = self.norm_weights(name)
        out = {'target': target, 'contrast': contrast, 'heads': heads, 'attentionBias': biases, 'mlps': mlps,
               'embed': through(rec['x0'][t]), 'normBias': float(norm_bias @ d) if norm_bias is not None else 0.0}
        total = sum(sum(r) for r in heads) + sum(biases) + sum(mlps) + out['embed'] + out['normBias']
        if head_bias is not None:
            out['headBias'] = float(head_bias[target] - (head_bias[contrast] if contrast is not None else 0))
            total += out['headBias']
        out['total'] = total
        pre = rec['pre_cap'][t]
        out['direct'] = float(pre[target] - (pre[contrast] if contrast is not None else 0))
        # The parts rebuild the residual stream (a check of the split itself).
        out['residualError'] = float((sum(parts) - rec['layers'][-1]['resid'][t]).abs().max())
        out['logitScale'] = self.logit_scale([rec], target, contrast, out['embed'], out['normBias'],
                                             *[v for row in heads for v in row], *biases, *mlps)
        return out

    def logit_scale(self, recs, target, contrast, *values):
        """max(1, |each pre-cap logit the difference reads|, |each value|): the size a float32 run's
        rounding of these numbers is relative to (a difference of two logits of 15 keeps the error of 15s)."""
        ids = [target] + ([contrast] if contrast is not None else [])
        return max([1.0] + [abs(float(r['pre_cap'][-1][t])) for r in recs for t in ids] + [abs(v) for v in values])

    def logit_diff(self, rec, target, contrast):
        last = rec['logits'][-1]
        return float(last[target] - (last[contrast] if contrast is not None else 0))

    def ablate(self, ids, heads, mode, target, contrast):
        torch = self.torch
        by_layer = {}
        for layer, h in heads:
            by_layer.setdefault(layer, []).append(h)

        def hook(layer, z):
            if layer not in by_layer:
                return z
            z = z.clone()
            for h in by_layer[layer]:
                # Mean: over this run's positions, the run already ablated in earlier layers.
                z[:, h] = 0 if mode == 'zero' else z[:, h].mean(dim=0, keepdim=True).expand_as(z[:, h])
            return z

        base_rec = self.run(ids)
        if target is None:
            target, contrast = int(torch.argmax(base_rec['logits'][-1])), None
        rec = self.run(ids, hook)
        return {'next': top(torch.softmax(rec['logits'][-1], dim=-1)), 'logitDiff': self.logit_diff(rec, target, contrast),
                'baseLogitDiff': self.logit_diff(base_rec, target, contrast), 'target': target,
                'logitScale': self.logit_scale([base_rec, rec], target, contrast)}

    def patch(self, clean_ids, corrupted_ids, target, contrast):
        clean, corrupted = self.run(clean_ids), self.run(corrupted_ids)
        m_clean = self.logit_diff(clean, target, contrast)
        m_corrupted = self.logit_diff(corrupted, target, contrast)
        out = []
        for i in range(self.L):
            row = []
            for h in range(self.H):
                def hook(layer, z, i=i, h=h):
                    if layer != i:
                        return z
                    z = z.clone()
                    z[:, h] = clean['layers'][i]['z'][:, h]
                    return z
                m = self.logit_diff(self.run(corrupted_ids, hook), target, contrast)
                # Undefined when the two texts give the same m (say, a difference out of every window's reach).
                row.append((m - m_corrupted) / (m_clean - m_corrupted) if m_clean != m_corrupted else None)
            out.append(row)
        return out, m_clean, m_corrupted, self.logit_scale([clean, corrupted], target, contrast)

    def generate(self, ids, count):
        ids = list(ids)
        made = []
        for _ in range(count):
            nxt = int(self.torch.argmax(self.run(ids)['logits'][-1]))
            made.append(nxt)
            ids.append(nxt)
        return made, [layer['alpha'] for layer in self.run(ids)['layers']]


def top(probs, k=5):
    """The k most likely ids, in order (the lower id first on a tie), with their p."""
    order = sorted(range(len(probs)), key=lambda t: (-float(probs[t]), t))[:k]
    return [{'id': t, 'p': float(probs[t])} for t in order]

# ---------------------------------------------------------------- encoders: the norms only


def encoder_norms(c, w, ids, dtype):
    """BERT, RoBERTa, DistilBERT: [layer][head][query][key] norms and the attention weights, in the
    block of families/bert.py (post-norm: each layer's heads read the previous layer's output)."""
    import torch
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

    def ln(x, name):
        weight, bias = bert_family.layer_norm_key(w, name)
        return torch.nn.functional.layer_norm(x, (E,), w[weight], w[bias], eps)

    dense = lambda x, name: x @ w[name + '.weight'].T + w[name + '.bias']
    t = torch.tensor(ids, dtype=torch.long)
    n = len(ids)
    if kind == 'roberta':
        pad = c.get('pad_token_id', 1)
        keep = (t != pad).long()
        positions = torch.cumsum(keep, 0) * keep + pad
    else:
        positions = torch.arange(n)
    emb = prefix + 'embeddings.'
    x = w[emb + 'word_embeddings.weight'][t] + w[emb + 'position_embeddings.weight'][positions]
    if not distil:
        x = x + w[emb + 'token_type_embeddings.weight'][0]
    x = ln(x, emb + 'LayerNorm')
    norms, value_norms, attention = [], [], []
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
        heads = lambda a: a.view(n, H, D).transpose(0, 1)
        q, k, v = heads(dense(x, q_)), heads(dense(x, k_)), heads(dense(x, v_))
        alpha = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(D), dim=-1)
        attention.append(alpha)
        W_O = w[o_ + '.weight'].T  # [H·D, E]
        vo = torch.stack([(v[h] @ W_O[h * D:(h + 1) * D]).norm(dim=-1) for h in range(H)])  # [H, n]: ||v_j W_O^h||
        norms.append(alpha * vo[:, None, :])
        value_norms.append(vo)
        mixed = (alpha @ v).transpose(0, 1).reshape(n, E)
        hidden = ln(x + dense(mixed, o_), n1)
        x = ln(hidden + dense(torch.nn.functional.gelu(dense(hidden, f1)), f2), n2)
    return norms, value_norms, attention

# ---------------------------------------------------------------- commands


def load(folder, dtype_name):
    import torch
    c, w = base.load(folder)
    return c, w, getattr(torch, dtype_name)


def analyze(r):
    import torch
    c, w, dtype = load(r['dir'], r.get('dtype', 'float64'))
    ids = r['ids']
    with torch.no_grad():
        if c['model_type'] in ENCODERS:
            norms, value_norms, attention = encoder_norms(c, w, ids, dtype)
            return {'norms': [a.tolist() for a in norms], 'valueNorms': [a.tolist() for a in value_norms],
                    'attention': [a.tolist() for a in attention]}
        m = Decoder(c, w, dtype, r['dir'])
        rec = m.run(ids)
        out = {'next': top(torch.softmax(rec['logits'][-1], dim=-1)), 'logits': rec['logits'][-1].tolist(),
               'attention': [layer['alpha'].tolist() for layer in rec['layers']]}
        if r.get('norms'):
            norms, value_norms = m.norms(rec)
            out['norms'], out['valueNorms'] = [a.tolist() for a in norms], [a.tolist() for a in value_norms]
        if r.get('logitLens'):
            out['logitLens'] = m.lens(rec)
        target, contrast = r.get('target'), r.get('contrast')
        if target is not None:
            out['attribution'] = m.attribution(rec, target, contrast)
        if r.get('ablate') is not None:
            out['ablation'] = m.ablate(ids, r['ablate'], r.get('ablation', 'zero'), target, contrast)
        if r.get('patchFrom') is not None:
            out['patching'], out['mClean'], out['mCorrupted'], out['patchingScale'] = m.patch(ids, r['patchFrom'], target, contrast)
        if r.get('generate') is not None:
            made, attention = m.generate(ids, r['generate'])
            out['generated'] = made
            out['attention'] = [a.tolist() for a in attention]
        return out


def family_forward(c, w, ids, folder, dtype_name):
    """The family's own reference forward (attention per layer, probs), as its module computes it."""
    import torch
    kind = c['model_type']
    if kind in ('phi3', 'gpt_neox'):
        import phi_neox
        return phi_neox.forward(c, w, ids, dtype_name)
    if kind in ENCODERS:
        return bert_family.forward(c, w, ids, None, getattr(torch, dtype_name))
    if rotary_family.handles(c) and kind not in GEMMAS:
        return rotary_family.forward(c, w, ids, getattr(torch, dtype_name))
    return base.forward(c, w, ids, folder)  # gpt2, llama, qwen2 in float32; gemma in float64


def check(r):
    """The hooked pass against the family's own forward: the largest weight and next-token p differences."""
    import torch
    dtype_name = r.get('dtype', 'float64')
    c, w, dtype = load(r['dir'], dtype_name)
    with torch.no_grad():
        theirs_attention, theirs_probs = family_forward(c, w, r['ids'], r['dir'], dtype_name)
        if c['model_type'] in ENCODERS:
            _, _, attention = encoder_norms(c, w, r['ids'], dtype)
            probs = None
        else:
            rec = Decoder(c, w, dtype, r['dir']).run(r['ids'])
            attention = [layer['alpha'] for layer in rec['layers']]
            probs = torch.softmax(rec['logits'][-1], dim=-1)
        weight = max(float((a.double() - b.double()).abs().max()) for a, b in zip(attention, theirs_attention))
        assert len(attention) == len(theirs_attention)
        p = 0.0 if probs is None else float((probs.double() - theirs_probs.double()).abs().max())
        return {'weight': weight, 'p': p}


def main():
    command = sys.argv[1]
    with open(sys.argv[2]) as f:
        requests = json.load(f)
    if command == 'analyze':
        print(json.dumps([analyze(r) for r in requests]))
    elif command == 'check':
        print(json.dumps([check(r) for r in requests]))
    else:
        raise SystemExit(f'unknown command {command}')


if __name__ == '__main__':
    main()
