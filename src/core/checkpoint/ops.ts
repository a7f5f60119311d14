// The pieces of a transformer layer besides attention and the matrix products (the core's one
// attention op, attention/attend.ts, and linalg/matrix.ts's products), in float64 on row-major
// arrays: LayerNorm and RMSNorm as PyTorch computes them (biased variance, eps inside the root),
// GPT-2's gelu_new (the tanh approximation), silu, RoPE as Hugging Face applies it: the frequencies
// 1 / θ^(2i / d) repeated for both halves of a head, q' = q · cos + rotate_half(q) · sin with
// rotate_half([a, b]) = [−b, a]. Each works on float32 or float64 activations alike, computing in
// float64 arithmetic and storing into the activations' own type.
import { erf, erfc } from './erf.js';
import type { Floats } from './precision.js';

/** A new array of x's type and length. */
const like = (x: Floats): Floats => (x instanceof Float32Array ? new Float32Array(x.length) : new Float64Array(x.length));

/** Adds `bias` (length m) to every row of the n × m `x`, in place. */
export function addBias(x: Floats, bias: Floats): void {
  const m = bias.length;
  for (let i = 0; i < x.length; i += m) for (let j = 0; j < m; j++) x[i + j] += bias[j];
}

/** x += y, element by element. */
export function addInto(x: Floats, y: Floats): void {
  for (let i = 0; i < x.length; i++) x[i] += y[i];
}

/** LayerNorm over each row of width m: (x − mean) / √(var + eps) · w + b, the variance biased. */
export function layerNorm<T extends Floats>(x: T, m: number, w: Floats, b: Floats, eps: number): T {
  const out = like(x) as T;
  for (let r = 0; r < x.length; r += m) {
    let mean = 0;
    for (let j = 0; j < m; j++) mean += x[r + j];
    mean /= m;
    let variance = 0;
    for (let j = 0; j < m; j++) variance += (x[r + j] - mean) ** 2;
    const inv = 1 / Math.sqrt(variance / m + eps);
    for (let j = 0; j < m; j++) out[r + j] = (x[r + j] - mean) * inv * w[j] + b[j];
  }
  return out;
}

/**
 * RMSNorm over each row of width m: x / √(mean(x²) + eps) · (offset + w); offset 1 for Gemma's
 * zero-centred weights. A row of m may be one head of a wider row (q and k normed per head).
 */
export function rmsNorm<T extends Floats>(x: T, m: number, w: Floats, eps: number, offset = 0): T {
  const out = like(x) as T;
  for (let r = 0; r < x.length; r += m) {
    let squares = 0;
    for (let j = 0; j < m; j++) squares += x[r + j] * x[r + j];
    const inv = 1 / Math.sqrt(squares / m + eps);
    // Without an offset, the product as it always was (w, not 0 + w: the same bits, −0 included).
    if (offset === 0) for (let j = 0; j < m; j++) out[r + j] = x[r + j] * inv * w[j];
    else for (let j = 0; j < m; j++) out[r + j] = x[r + j] * inv * (offset + w[j]);
  }
  return out;
}

/** GPT-2's gelu_new, in place: 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))). */
export function geluNew(x: Floats): void {
  if (x instanceof Float32Array) return geluNew32(x);
  const c = Math.sqrt(2 / Math.PI);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    x[i] = 0.5 * v * (1 + Math.tanh(c * (v + 0.044715 * v * v * v)));
  }
}

/**
 * gelu_new on float32 activations: 0.5 v (1 + tanh u) written as v / (1 + e^(−2u)), the same number
 * to within a few float64 ulps (far below float32's rounding of the result) and 40% faster, since
 * V8's Math.tanh costs about twice Math.exp. For u → −∞ it is v / ∞ = −0, as 0.5 v (1 − 1) is 0.
 */
function geluNew32(x: Float32Array): void {
  const c = 2 * Math.sqrt(2 / Math.PI);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    x[i] = v / (1 + Math.exp(-c * (v + 0.044715 * v * v * v)));
  }
}

/**
 * The exact GELU, in place: x · (1 + erf(x / √2)) / 2, as PyTorch's nn.GELU() and Hugging Face's
 * "gelu" compute it (not the tanh approximation; BERT's, GPT-NeoX's). Below 0 it is x · erfc(|x| / √2)
 * / 2, so the tail's tiny values keep their digits rather than being 1 − erf's rounding.
 */
export function gelu(x: Floats): void {
  for (let i = 0; i < x.length; i++) {
    const v = x[i], z = v * Math.SQRT1_2;
    x[i] = 0.5 * v * (v >= 0 ? 1 + erf(z) : erfc(-z));
  }
}

/** GeGLU's gate with the tanh GELU (gelu_pytorch_tanh, gelu_new's formula), in place into `gate`: gelu(gate) · up. */
export function gegluTanh(gate: Floats, up: Floats): void {
  // gelu_new's own loop, then the product: the same operations in the same order as one expression.
  geluNew(gate);
  for (let i = 0; i < gate.length; i++) gate[i] *= up[i];
}

/** c · tanh(s / c) on every entry, in place (Gemma 2's final logit softcapping). */
export function softcapInto(x: Floats, cap: number): void {
  for (let i = 0; i < x.length; i++) x[i] = cap * Math.tanh(x[i] / cap);
}

/**
 * A float64 constant as a model's code holds it in a tensor of `dtype`: F64 as it is; F32 rounded to
 * float32; F16 and BF16 rounded to float32 first, then to their 11 and 8 significant bits, to nearest,
 * ties to even (as PyTorch's conversions from float round). For constants in those types' normal range.
 */
export function roundedTo(value: number, dtype: 'F64' | 'F32' | 'F16' | 'BF16'): number {
  if (dtype === 'F64') return value;
  const single = Math.fround(value);
  if (dtype === 'F32' || single === 0 || !Number.isFinite(single)) return single;
  const bits = dtype === 'F16' ? 11 : 8;
  const ulp = 2 ** (Math.floor(Math.log2(Math.abs(single))) - bits + 1);
  const units = single / ulp, below = Math.floor(units), rest = units - below;
  return (rest > 0.5 || (rest === 0.5 && below % 2 !== 0) ? below + 1 : below) * ulp;
}

/** SwiGLU's gate, in place into `gate`: silu(gate) · up. */
export function swiglu(gate: Floats, up: Floats): void {
  for (let i = 0; i < gate.length; i++) {
    const g = gate[i];
    gate[i] = (g / (1 + Math.exp(-g))) * up[i];
  }
}

/**
 * RoPE's cos and sin tables for positions from…n − 1, [n − from, headDim / 2] each (the same for both
 * halves of a head), from θ (the default frequencies) or the headDim / 2 frequencies themselves (a
 * scaled RoPE). A position's row is the same whatever `from` and `n` are (a run that reuses a prefix
 * rotates its new positions exactly as a whole run does).
 */
export function ropeTables(n: number, headDim: number, theta: number | Float64Array, from = 0): { cos: Float64Array; sin: Float64Array } {
  const half = headDim / 2;
  const cos = new Float64Array((n - from) * half), sin = new Float64Array((n - from) * half);
  for (let i = 0; i < half; i++) {
    const inv = typeof theta === 'number' ? 1 / theta ** ((2 * i) / headDim) : theta[i];
    for (let p = from; p < n; p++) {
      cos[(p - from) * half + i] = Math.cos(p * inv);
      sin[(p - from) * half + i] = Math.sin(p * inv);
    }
  }
  return { cos, sin };
}

/**
 * Rotates every head of the n × (heads · headDim) `x` in place: for position p and i < dims / 2,
 * (a, b) = (x[i], x[i + half]) becomes (a cos − b sin, b cos + a sin). `dims` (the whole head unless
 * given) are the head's first ones that rotate, with tables made for that many; the rest stay.
 */
export function applyRope(x: Floats, n: number, heads: number, headDim: number, tables: { cos: Float64Array; sin: Float64Array }, dims = headDim): void {
  const half = dims / 2, width = heads * headDim;
  for (let p = 0; p < n; p++) {
    for (let h = 0; h < heads; h++) {
      const at = p * width + h * headDim;
      for (let i = 0; i < half; i++) {
        const c = tables.cos[p * half + i], s = tables.sin[p * half + i];
        const a = x[at + i], b = x[at + i + half];
        x[at + i] = a * c - b * s;
        x[at + i + half] = b * c + a * s;
      }
    }
  }
}
