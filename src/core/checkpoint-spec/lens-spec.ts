// The seeds' lens on a real head: a computed spec whose `attn compute` gives that head's attention
// (to 1e-5), so every spec view (steps, the matrix with its dot products, geometry, the spectrum of
// W_Q, W_K, W_V, W_O and the QK and OV circuits) shows the real numbers. The big arrays go into one
// safetensors file beside the spec; the spec names them ({ "file", "tensor" }).
//   GPT-2 (no rotation): each token's vector is x (the layer norm's output) with a constant 1
//   appended, and W_Q is the head's W_Q with its bias as the last row, so x·W_Q + b_Q = [x | 1]·W_Q
//   exactly (likewise W_K, W_V); W_O gets a zero column for the constant.
//   Llama and Qwen2 (RoPE): q and k are rotated by their position, which no single W_Q can do, so
//   each token's vector is [q | k | v] as the scores use them (after the rotation) and W_Q, W_K and
//   W_V select their third; the head's own matrices are kept in the file (source.*) and the
//   description says so.
//   An encoder's head (BERT) sees every key: the spec's mask is none.
//   A sliding-window head (Mistral) whose window is shorter than the text: the input's own mask is
//   the band of keys each query sees, on top of the causal mask. Pure: the caller writes the file
//   and the spec.
import type { HeadLens } from '../checkpoint/types.js';
import type { TensorToWrite } from '../tensors/safetensors-write.js';

export interface LensSpecOptions {
  /** The tensor file's name, beside the spec. */
  tensorFile: string;
  /** The model's name, for the title ("gpt2", a folder's name). */
  model?: string;
  /** The query token the panel opens on (default: the last). */
  query?: number;
  /** Where the lens's first token sits in the run (a window of a longer run): words are numbered by the run's places. */
  first?: number;
}

export interface LensSpec {
  /** The spec, as JSON (written as it is). */
  spec: Record<string, unknown>;
  /** The tensors of the file beside it. */
  tensors: TensorToWrite[];
}

/**
 * The words of the spec's inputs: each token's text, made unique (a spec's embedding table has one
 * vector per word, but "The" at position 1 and at position 9 are different vectors) by its place:
 * "The#1", "The#9". A token that is already unique keeps its text, unless it is empty. A numbered
 * word can still meet a token written that way ("a#2" beside two "a"), so a numbered one that is
 * taken gets a further number; every word is then distinct, as the spec's reader requires.
 */
export function lensWords(tokens: readonly string[], first = 0): string[] {
  const count = new Map<string, number>();
  for (const t of tokens) count.set(t, (count.get(t) ?? 0) + 1);
  const lowered = new Map<string, number>();
  for (const t of tokens) lowered.set(t.toLowerCase(), (lowered.get(t.toLowerCase()) ?? 0) + 1);
  const plain = tokens.map((t) => t.length > 0 && count.get(t) === 1 && lowered.get(t.toLowerCase()) === 1);
  const taken = new Set(tokens.filter((_, i) => plain[i]));
  return tokens.map((t, i) => {
    if (plain[i]) return t;
    let word = `${t}#${first + i + 1}`;
    for (let k = 2; taken.has(word); k++) word = `${t}#${first + i + 1}#${k}`;
    taken.add(word);
    return word;
  });
}

export function lensSpec(lens: HeadLens, options: LensSpecOptions): LensSpec {
  const n = lens.tokens.length, d = lens.dModel, hd = lens.headDim;
  const words = lensWords(lens.tokens, options.first);
  const query = options.query !== undefined && options.query >= 0 && options.query < n ? options.query : n - 1;
  const ref = (tensor: string) => ({ file: options.tensorFile, tensor });
  const name = `layer ${lens.layer + 1} head ${lens.head + 1}`;
  const model = options.model ? `${options.model}, ` : '';
  const tensors: TensorToWrite[] = [];
  const add = (tensorName: string, rows: number, cols: number, data: Float64Array) => tensors.push({ name: tensorName, dtype: 'F64', shape: [rows, cols], data });
  let features: string[];
  let description: string;
  const hasWo = !lens.rotary;
  if (!lens.rotary) {
    add('embeddings', n, d + 1, appendOnes(lens.x, n, d));
    add('wq', d + 1, hd, withBiasRow(lens.wq, lens.bq, d, hd));
    add('wk', d + 1, hd, withBiasRow(lens.wk, lens.bk, d, hd));
    add('wv', d + 1, hd, withBiasRow(lens.wv, lens.bv, d, hd));
    add('wo', hd, d + 1, withZeroColumn(lens.wo, hd, d));
    add('residual', n, d, lens.residual);
    features = [...Array.from({ length: d }, (_, i) => `x${i}`), 'one'];
    description = `${model}${name}: each token's vector is what the head reads (the residual stream after the layer's norm) with a constant 1 appended (the feature "one"), ` +
      'and the last row of W_Q, W_K and W_V is the head\'s bias, so q = [x | 1] · W_Q is the model\'s x · W_Q + b_Q exactly. ' +
      'W_O is this head\'s rows of the output projection (its bias, shared by all heads, is left out). The residual stream before the norm is in the tensor file as "residual".';
  } else {
    const qkv = new Float64Array(n * 3 * hd);
    for (let i = 0; i < n; i++) {
      qkv.set(lens.q.subarray(i * hd, (i + 1) * hd), i * 3 * hd);
      qkv.set(lens.k.subarray(i * hd, (i + 1) * hd), i * 3 * hd + hd);
      qkv.set(lens.v.subarray(i * hd, (i + 1) * hd), i * 3 * hd + 2 * hd);
    }
    add('embeddings', n, 3 * hd, qkv);
    add('wq', 3 * hd, hd, selector(0, hd));
    add('wk', 3 * hd, hd, selector(1, hd));
    add('wv', 3 * hd, hd, selector(2, hd));
    add('source.x', n, d, lens.x);
    add('source.residual', n, d, lens.residual);
    add('source.wq', d, hd, lens.wq);
    add('source.wk', d, hd, lens.wk);
    add('source.wv', d, hd, lens.wv);
    add('source.wo', hd, d, lens.wo);
    for (const [role, b] of [['bq', lens.bq], ['bk', lens.bk], ['bv', lens.bv]] as const) if (b) add(`source.${role}`, 1, hd, b);
    features = [...['q', 'k', 'v'].flatMap((p) => Array.from({ length: hd }, (_, i) => `${p}${i}`))];
    description = `${model}${name}, key/value head ${lens.kvHead + 1}: this model rotates q and k by their position (RoPE), which no single W_Q can express, ` +
      'so each token\'s vector here is [q | k | v] as the scores use them (q and k after the rotation), and W_Q, W_K and W_V select their third. ' +
      'The head\'s own W_Q, W_K, W_V (before the rotation), W_O and its input x are in the tensor file as source.wq, source.wk, source.wv, source.wo and source.x.';
  }
  // A window shorter than the text hides keys the causal mask shows: the input carries the band.
  const band = lens.window !== undefined && lens.window < n ? windowBand(n, lens.window) : undefined;
  if (band) description += ` The head attends over a sliding window of ${lens.window} tokens: query i sees keys i − ${lens.window} < j ≤ i, which the input's mask gives (1 where a key is seen, 0 where it is hidden).`;
  if (lens.bidirectional) description += ' This is an encoder\'s head: every token attends to every token, before and after it (no mask), and its layers norm after each part (post-norm), so what the head reads is the layer\'s input itself, normed by the layer before.';
  if (lens.softcap !== undefined) {
    description += ` The model caps each scaled score s at ${lens.softcap} · tanh(s / ${lens.softcap}) before the softmax, which a spec does not compute: ` +
      `the weights here are the uncapped softmax, at most ${uncappedGap(lens).toExponential(2)} from the run's.`;
  }
  const spec: Record<string, unknown> = {
    title: `${model}${name}`,
    description,
    open: { view: 'steps', token: words[query] },
    features,
    embeddings: { ...ref('embeddings'), words },
    inputs: [{ name: 'text', tokens: words, ...(band ? { mask: band } : {}) }],
    heads: [{ name, wq: ref('wq'), wk: ref('wk'), wv: ref('wv') }],
    ...(hasWo ? { wo: ref('wo') } : {}),
    scale: lens.scale,
    // An encoder's head sees every key: the spec has no mask, so its matrix is full as the run's is.
    mask: lens.bidirectional ? 'none' : 'causal',
  };
  return { spec, tensors };
}

/** The largest difference between the head's weights and the softmax of its uncapped scores q · k / scale over the keys each query sees. */
function uncappedGap(lens: HeadLens): number {
  const n = lens.tokens.length, D = lens.headDim;
  let gap = 0;
  for (let i = 0; i < n; i++) {
    const lo = lens.window !== undefined ? Math.max(0, i - lens.window + 1) : 0;
    const s: number[] = [];
    for (let j = lo; j <= i; j++) {
      let dot = 0;
      for (let d = 0; d < D; d++) dot += lens.q[i * D + d] * lens.k[j * D + d];
      s.push(dot / lens.scale);
    }
    const top = Math.max(...s), sum = s.reduce((a, v) => a + Math.exp(v - top), 0);
    s.forEach((v, t) => { gap = Math.max(gap, Math.abs(Math.exp(v - top) / sum - lens.weights[i * n + lo + t])); });
  }
  return gap;
}

/** n × n rows of 1 (seen) and 0 (hidden): query i sees keys j with i − window < j ≤ i. */
function windowBand(n: number, window: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i && j > i - window ? 1 : 0)));
}

/** [n, d] → [n, d + 1] with a 1 in the last column. */
function appendOnes(x: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n * (d + 1));
  for (let i = 0; i < n; i++) {
    out.set(x.subarray(i * d, (i + 1) * d), i * (d + 1));
    out[i * (d + 1) + d] = 1;
  }
  return out;
}

/** [d, hd] with the bias (or zeros) as row d. */
function withBiasRow(w: Float64Array, b: Float64Array | undefined, d: number, hd: number): Float64Array {
  const out = new Float64Array((d + 1) * hd);
  out.set(w.subarray(0, d * hd));
  if (b) out.set(b.subarray(0, hd), d * hd);
  return out;
}

/** [hd, d] → [hd, d + 1] with a zero last column. */
function withZeroColumn(w: Float64Array, hd: number, d: number): Float64Array {
  const out = new Float64Array(hd * (d + 1));
  for (let i = 0; i < hd; i++) out.set(w.subarray(i * d, (i + 1) * d), i * (d + 1));
  return out;
}

/** [3 hd, hd]: the identity in rows part·hd … (part + 1)·hd − 1, zeros elsewhere. */
function selector(part: number, hd: number): Float64Array {
  const out = new Float64Array(3 * hd * hd);
  for (let i = 0; i < hd; i++) out[(part * hd + i) * hd + i] = 1;
  return out;
}
