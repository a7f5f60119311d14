"""A GPT-2 checkpoint built by hand, whose two meaningful heads do what the papers on induction heads
describe, so the model views have something true to show: examples/models/induction-gpt2/.

  python3 scripts/make_induction_model.py [OUT_DIR]     (default: examples/models/induction-gpt2)

Writes config.json, model.safetensors (F32) and tokenizer.json. numpy only, no random numbers: every
weight is set by the design below, so running it again gives the same bytes (a unit test checks that
the committed folder is what this script makes).

The residual stream (d_model 64) is cut into three blocks of features, each of which every vector keeps
at zero sum, so GPT-2's LayerNorm (mean subtracted, divided by the spread, weight 1, bias 0) only scales
the whole vector by one number and never mixes the blocks:
  features  0-23  TOKEN: which word this is. A word's code is a row of a 24 x 24 Hadamard matrix (+1/-1
                  entries, twelve of each), or its negative: 23 rows x 2 signs = 46 words, any two codes
                  either orthogonal (dot 0) or opposite (dot -24), never partly alike.
  features 24-47  PREVIOUS: which word came just before. Empty at the input; layer 0's head 0 writes it.
  features 48-63  POSITION: four clock hands (circles) turning 2, 3, 11 and 23 steps of 2pi/64 per token,
                  each hand's cos and sin written as a +/- pair (cos, sin, ..., -cos, -sin, ...).
Layers and heads here count from 0 (the views count from 1: layer 0 head 0 is "layer 1, head 1").
  layer 0 head 0  previous-token head. q reads the four hands turned back by one step, k reads them as
                  they are, so q_i . k_j = A * sum_h cos((i - 1 - j) * angle_h), largest at j = i - 1.
                  (Four hands rather than one: a single hand's neighbours score almost as high as its
                  peak; the four speeds were chosen so every other key up to 64 back scores at most 44%
                  of the peak.) v reads the TOKEN block; the output goes into PREVIOUS.
  layer 0 head 1  self head: the same hands without the turn, so each query's largest score is its own
                  key. Its value and output are zero: it is there to compare with head 0.
  layer 1 head 0  induction head. q reads TOKEN, k reads PREVIOUS (K-composition with layer 0 head 0):
                  a key scores high when the word before it is the query's word. v reads TOKEN and the
                  output adds that word's code to TOKEN, twice as strong, so the unembedding reads it.
  layer 1 head 1  uniform head: W_Q = W_K = 0, every score 0, the weights 1/(i + 1). Output zero.
  MLPs            zero (n_inner 4, weights and biases 0), so the residual stream stays readable.
  ln_f, lm_head   ln_f keeps the TOKEN block (weight 1/4) and drops the rest (weight 0); its bias puts a
                  constant +1/-1 in the first hand's cos pair, which every whole word's lm_head row reads
                  as a bonus of 6 (so whole words rank above byte pieces). lm_head rows are the word codes:
                  not tied to wte, so config.json says "tie_word_embeddings": false.
Byte pieces and the pieces BPE passes through on the way to a word ("Ġc", "Ġca") have zero embeddings.
On position 0 the previous-token head can only attend to itself, so PREVIOUS there holds the first
word itself (real models lean on a first token too).
"""
import json
import math
import os
import struct
import sys

import numpy as np

from gpt2_bytes import bytes_to_unicode  # beside this script

D_MODEL, N_HEAD, N_LAYER, N_POSITIONS, N_INNER = 64, 2, 2, 64, 4
HEAD_DIM = D_MODEL // N_HEAD
TOKEN, PREVIOUS, POSITION = slice(0, 24), slice(24, 48), slice(48, 64)
HANDS = (2, 3, 11, 23)  # each hand turns HANDS[h] * 2pi / N_POSITIONS per token
PREV_SCORE = 18.0  # the previous-token head's score on its previous key
INDUCTION_SCORE = 12.0  # the induction head's score on a key whose previous word is the query's word
COPY = 2.0  # how much stronger the induction head writes the copied word than the word itself
LN_F_TOKEN = 0.25  # ln_f's weight on the TOKEN block: sets how sure the next-token list is
WORD_BONUS = 6.0  # every whole word's logit over a byte piece's

# The 46 words, in code order: word k has Hadamard row 1 + k % 23, negated for k >= 23.
WORDS = [
    'The', 'A', 'I', '.', ',',
    'ĠThe', 'ĠA', 'ĠI', 'Ġthe', 'Ġa', 'Ġcat', 'Ġsat', 'Ġon', 'Ġmat', 'Ġdog', 'Ġran', 'Ġto', 'Ġin',
    'Ġand', 'Ġbird', 'Ġsaw', 'Ġfox', 'Ġate',
    'Ġhat', 'Ġbig', 'Ġred', 'Ġsun', 'Ġhouse', 'Ġmouse', 'Ġapple', 'Ġwatch', 'Ġlove', 'Ġtree', 'Ġsky',
    'Ġblue', 'Ġhead', 'Ġkey', 'Ġquery', 'Ġvalue', 'Ġis', 'Ġit', 'Ġhe', 'Ġshe', 'Ġwas', 'Ġnot', 'Ġup',
]

# ---------------------------------------------------------------- the tokenizer

def vocabulary():
    """GPT-2's layout: the 256 byte pieces (printable first), the merges' pieces, <|endoftext|> last.
    The merges build each word from its left end ("Ġ c", "Ġc a", "Ġca t"); the words without a leading
    space come last, so inside "ĠThe" the merge "Ġ T" fires before "T h" could."""
    chars = bytes_to_unicode()
    vocab = {}
    for c in sorted(chars.values(), key=ord):
        vocab[c] = len(vocab)
    merges = []
    spaced = [w for w in WORDS if w.startswith('Ġ')]
    plain = [w for w in WORDS if not w.startswith('Ġ')]
    for word in spaced + plain:
        for end in range(2, len(word) + 1):
            left, right = word[:end - 1], word[end - 1]
            if word[:end] not in vocab:
                merges.append((left, right))
                vocab[word[:end]] = len(vocab)
    vocab['<|endoftext|>'] = len(vocab)
    for word in WORDS:  # each word must come out of BPE whole
        assert bpe(word, merges) == [word], (word, bpe(word, merges))
    return vocab, merges


def bpe(piece, merges):
    """Byte-pair encoding of one pre-token: the lowest-ranked adjacent pair is merged until none is left."""
    rank = {m: r for r, m in enumerate(merges)}
    parts = list(piece)
    while True:
        pairs = [(rank.get((a, b), len(rank)), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
        best = min(pairs, default=(len(rank), -1))
        if best[0] == len(rank):
            return parts
        i = best[1]
        parts[i:i + 2] = [parts[i] + parts[i + 1]]


def tokenizer_json(vocab, merges):
    byte_level = {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': True, 'use_regex': True}
    return {
        'version': '1.0',
        'truncation': None,
        'padding': None,
        'added_tokens': [{'id': vocab['<|endoftext|>'], 'content': '<|endoftext|>', 'single_word': False,
                          'lstrip': False, 'rstrip': False, 'normalized': True, 'special': True}],
        'normalizer': None,
        'pre_tokenizer': byte_level,
        'post_processor': {**byte_level, 'trim_offsets': False},
        'decoder': byte_level,
        'model': {'type': 'BPE', 'dropout': None, 'unk_token': None, 'continuing_subword_prefix': '',
                  'end_of_word_suffix': '', 'fuse_unk': False, 'byte_fallback': False, 'ignore_merges': False,
                  'vocab': vocab, 'merges': [[a, b] for a, b in merges]},
    }

# ---------------------------------------------------------------- the weights

def hadamard24():
    """Paley's construction for q = 23 (23 is prime, 23 = 3 mod 4), its columns signed so that row 0 is
    all +1: every other row then has twelve +1 and twelve -1 (zero sum) and any two rows are orthogonal."""
    q = 23
    squares = {(x * x) % q for x in range(1, q)}
    chi = lambda a: 0 if a % q == 0 else (1 if a % q in squares else -1)
    jacobsthal = np.array([[chi(j - i) for j in range(q)] for i in range(q)], dtype=np.int64)
    s = np.zeros((q + 1, q + 1), dtype=np.int64)
    s[0, 1:] = 1
    s[1:, 0] = -1
    s[1:, 1:] = jacobsthal
    h = s + np.eye(q + 1, dtype=np.int64)
    h = h * h[0][None, :]
    assert (h @ h.T == (q + 1) * np.eye(q + 1)).all() and (h[0] == 1).all()
    return h.astype(np.float32)


def word_codes():
    """word -> its +/-1 code in the TOKEN block."""
    h = hadamard24()
    rows = len(h) - 1
    return {w: (1 if k < rows else -1) * h[1 + k % rows] for k, w in enumerate(WORDS)}


def hand_angles():
    return [h * 2 * math.pi / N_POSITIONS for h in HANDS]


def position_features(i):
    """The POSITION block at position i: each hand's (cos, sin), then the same negated. (math's cos and
    sin, not numpy's, whose vectorised versions may differ in the last bit between machines.)"""
    pairs = np.array([f(a * i) for a in hand_angles() for f in (math.cos, math.sin)])
    return np.concatenate([pairs, -pairs])


def read_pairs(block_start, count):
    """A [count*2, count] map that reads the logical value u of each +/- pair (u, -u) as (x+ - x-) / 2."""
    m = np.zeros((D_MODEL, count))
    for c in range(count):
        m[block_start + c, c] = 0.5
        m[block_start + count + c, c] = -0.5
    return m


def weights(vocab):
    codes = word_codes()
    V = len(vocab)
    wte = np.zeros((V, D_MODEL))
    for w, code in codes.items():
        wte[vocab[w], TOKEN] = code
    wpe = np.stack([np.concatenate([np.zeros(48), position_features(i)]) for i in range(N_POSITIONS)])
    assert abs(wte.sum(axis=1)).max() < 1e-12 and abs(wpe.sum(axis=1)).max() < 1e-9

    # LayerNorm's factor on a word's residual: d_model / |x|^2 under the square root.
    ln_scale = lambda norm2: np.sqrt(D_MODEL / norm2)
    hands = len(HANDS)
    word_norm2, position_norm2 = 24.0, 2.0 * hands
    s0 = ln_scale(word_norm2 + position_norm2)  # layer 0 reads token + position
    s1 = ln_scale(word_norm2 + word_norm2 + position_norm2)  # layer 1 also reads PREVIOUS (±1)

    t = {'wte.weight': wte, 'wpe.weight': wpe}
    eye24 = np.eye(24)
    reads_hands = read_pairs(48, 2 * hands)  # [64, 8]: (cos_h, sin_h) of every hand

    # Layer 0.
    c_attn = np.zeros((D_MODEL, 3 * D_MODEL))
    q0, k0, v0 = 0, D_MODEL, 2 * D_MODEL
    turn_back = np.zeros((2 * hands, 2 * hands))  # rotates each hand's (cos, sin) by minus its step
    for h, a in enumerate(hand_angles()):
        turn_back[2 * h:2 * h + 2, 2 * h:2 * h + 2] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
    # q_i . k_j = g * s0^2 * sum_h cos((i - 1 - j) a_h) / sqrt(head_dim), = PREV_SCORE at j = i - 1.
    g = PREV_SCORE * np.sqrt(HEAD_DIM) / (s0 * s0 * hands)
    c_attn[:, q0:q0 + 2 * hands] = reads_hands @ turn_back * g
    c_attn[:, k0:k0 + 2 * hands] = reads_hands
    c_attn[TOKEN, v0:v0 + 24] = eye24  # v: the token's code (times LayerNorm's s0)
    # head 1: the same hands, not turned: q_i . k_j largest at j = i.
    c_attn[:, q0 + HEAD_DIM:q0 + HEAD_DIM + 2 * hands] = reads_hands * g
    c_attn[:, k0 + HEAD_DIM:k0 + HEAD_DIM + 2 * hands] = reads_hands
    c_proj = np.zeros((D_MODEL, D_MODEL))
    c_proj[0:24, PREVIOUS] = eye24 / s0  # head 0's output: PREVIOUS = the attended token's ±1 code
    t.update(block(0, c_attn, c_proj))

    # Layer 1.
    c_attn = np.zeros((D_MODEL, 3 * D_MODEL))
    # q . k = gi * s1^2 * (code_query . code_previous) / sqrt(head_dim), = INDUCTION_SCORE on a match (24).
    gi = INDUCTION_SCORE * np.sqrt(HEAD_DIM) / (s1 * s1 * 24)
    c_attn[TOKEN, q0:q0 + 24] = eye24 * gi
    c_attn[PREVIOUS, k0:k0 + 24] = eye24
    c_attn[TOKEN, v0:v0 + 24] = eye24
    c_proj = np.zeros((D_MODEL, D_MODEL))
    c_proj[0:24, TOKEN] = eye24 * COPY / s1  # adds COPY x the attended word's code to TOKEN
    t.update(block(1, c_attn, c_proj))

    ln_f_weight = np.zeros(D_MODEL)
    ln_f_weight[TOKEN] = LN_F_TOKEN
    ln_f_bias = np.zeros(D_MODEL)
    ln_f_bias[48], ln_f_bias[48 + 2 * hands] = 1.0, -1.0  # the first hand's cos pair: a constant +1 / -1
    lm_head = np.zeros((V, D_MODEL))
    for w, code in codes.items():
        lm_head[vocab[w], TOKEN] = code
        lm_head[vocab[w], 48], lm_head[vocab[w], 48 + 2 * hands] = WORD_BONUS / 2, -WORD_BONUS / 2
    t.update({'ln_f.weight': ln_f_weight, 'ln_f.bias': ln_f_bias, 'lm_head.weight': lm_head})
    return {name: np.asarray(a, dtype=np.float32) for name, a in t.items()}


def block(layer, c_attn, c_proj):
    p = f'h.{layer}.'
    return {
        p + 'ln_1.weight': np.ones(D_MODEL), p + 'ln_1.bias': np.zeros(D_MODEL),
        p + 'attn.c_attn.weight': c_attn, p + 'attn.c_attn.bias': np.zeros(3 * D_MODEL),
        p + 'attn.c_proj.weight': c_proj, p + 'attn.c_proj.bias': np.zeros(D_MODEL),
        p + 'ln_2.weight': np.ones(D_MODEL), p + 'ln_2.bias': np.zeros(D_MODEL),
        p + 'mlp.c_fc.weight': np.zeros((D_MODEL, N_INNER)), p + 'mlp.c_fc.bias': np.zeros(N_INNER),
        p + 'mlp.c_proj.weight': np.zeros((N_INNER, D_MODEL)), p + 'mlp.c_proj.bias': np.zeros(D_MODEL),
    }

# ---------------------------------------------------------------- the files

def write_safetensors(path, tensors):
    """F32, names sorted, the header padded with spaces to 8 bytes (as the safetensors library does)."""
    header, blobs, at = {}, [], 0
    for name in sorted(tensors):
        raw = np.ascontiguousarray(tensors[name], dtype='<f4').tobytes()
        header[name] = {'dtype': 'F32', 'shape': list(tensors[name].shape), 'data_offsets': [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    text = json.dumps(header, separators=(',', ':')).encode()
    text += b' ' * ((8 - len(text) % 8) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def config(vocab_size):
    return {
        'model_type': 'gpt2', 'architectures': ['GPT2LMHeadModel'],
        'n_embd': D_MODEL, 'n_head': N_HEAD, 'n_layer': N_LAYER, 'n_positions': N_POSITIONS, 'n_ctx': N_POSITIONS,
        'n_inner': N_INNER, 'vocab_size': vocab_size, 'layer_norm_epsilon': 1e-5,
        'activation_function': 'gelu_new', 'tie_word_embeddings': False,
        'bos_token_id': vocab_size - 1, 'eos_token_id': vocab_size - 1,
    }


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'examples', 'models', 'induction-gpt2')
    os.makedirs(out, exist_ok=True)
    vocab, merges = vocabulary()
    with open(os.path.join(out, 'config.json'), 'w', encoding='utf-8', newline='\n') as f:
        f.write(json.dumps(config(len(vocab)), indent=2) + '\n')
    with open(os.path.join(out, 'tokenizer.json'), 'w', encoding='utf-8', newline='\n') as f:
        f.write(json.dumps(tokenizer_json(vocab, merges), ensure_ascii=False) + '\n')
    write_safetensors(os.path.join(out, 'model.safetensors'), weights(vocab))


if __name__ == '__main__':
    main()
