// Value-weighted attention (Kobayashi et al. 2020): how much of what a key holds a head actually
// writes, ‖α_ij · (x_j W_V^h + b_V^h) W_O^h‖₂ = α_ij · ‖v_j W_O^h‖₂ (α ≥ 0). A head may put 0.9 of
// its weight on a key whose value, through the head's rows of W_O, is nearly nothing: the norm says so.
// Read from a run as it goes (a probe): each layer's values, then each head's weights. ‖v_j W_O^h‖ is
// computed once per head and key (n · dModel · headDim a head, one product), in float64 arithmetic
// over the float32 kernel's product in a float32 run, over float64 products in a float64 one.
import type { ModelConfig } from '../checkpoint/config.js';
import type { ModelNames } from '../checkpoint/families/shared/family.js';
import { allFinite } from '../checkpoint/finite.js';
import type { ForwardProbe } from '../checkpoint/probe.js';
import type { Floats, Precision, Rows } from '../checkpoint/precision.js';
import { widened, widened64 } from '../checkpoint/stored-read.js';
import type { Weights } from '../checkpoint/weights.js';
import { gemm32 } from '../kernels/gemm32.js';
import { matmul } from '../linalg/matrix.js';

export interface NormsProbe {
  probe: ForwardProbe;
  /** Per layer, [heads, n, n]. */
  norms: Floats[];
  /** Per layer, [heads, n]: ‖v_j W_O^h‖. */
  valueNorms: Floats[];
}

export function normsProbe(c: ModelConfig, names: ModelNames, w: Weights, n: number, precision: Precision): NormsProbe {
  const H = c.heads, D = c.headDim, E = c.dModel, group = c.heads / c.kvHeads;
  const make = (count: number): Floats => (precision === 'f64' ? new Float64Array(count) : new Float32Array(count));
  const norms: Floats[] = [], valueNorms: Floats[] = [];
  return {
    norms, valueNorms,
    probe: {
      values(layer, v) {
        const out = make(H * n);
        const wo = headRowsOfWo(c, w, names.layers[layer].o, precision);
        for (let h = 0; h < H; h++) {
          const vh = columns(v, Math.floor(h / group) * D, D, precision);
          const written = precision === 'f64'
            ? matmul({ rows: n, cols: D, data: vh as Float64Array }, { rows: D, cols: E, data: wo[h] as Float64Array }).data
            : gemm32(vh as Float32Array, n, D, wo[h] as Float32Array, E, false);
          for (let j = 0; j < n; j++) out[h * n + j] = norm2(written, j * E, E);
        }
        // Each number of v W_O finite, their norm can still pass float32's range (and α = 0 times
        // Infinity is NaN): refused, as the run refuses its own overflow.
        if (!allFinite(out)) throw w.nonFinite([names.layers[layer].o], `in layer ${layer + 1}'s value-weighted norms`);
        valueNorms[layer] = out;
        norms[layer] = make(H * n * n);
      },
      headWeights(layer, head, weights) {
        const out = norms[layer], vn = valueNorms[layer], at = head * n * n;
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[at + i * n + j] = weights[i * n + j] * vn[head * n + j];
      },
    },
  };
}

/** ‖data[at … at + length)‖₂, scaled by the largest entry where the squares would overflow or vanish. */
function norm2(data: Floats, at: number, length: number): number {
  let sum = 0;
  for (let e = at; e < at + length; e++) sum += data[e] * data[e];
  if (Number.isFinite(sum) && sum > 1e-290) return Math.sqrt(sum);
  let largest = 0;
  for (let e = at; e < at + length; e++) largest = Math.max(largest, Math.abs(data[e]));
  if (largest === 0 || !Number.isFinite(largest)) return largest;
  let scaled = 0;
  for (let e = at; e < at + length; e++) scaled += (data[e] / largest) ** 2;
  return largest * Math.sqrt(scaled);
}

/** Each head's rows of the output projection, [headDim, dModel] in y = z · W form, in the run's width. */
export function headRowsOfWo(c: ModelConfig, w: Weights, name: string, precision: Precision): Floats[] {
  const stored = w.matrix(name), H = c.heads, D = c.headDim, E = c.dModel;
  const all = precision === 'f64' ? widened64(stored) : widened(stored);
  const make = (count: number): Floats => (precision === 'f64' ? new Float64Array(count) : new Float32Array(count));
  const out: Floats[] = [];
  for (let h = 0; h < H; h++) {
    const rows = make(D * E);
    if (c.block.matrices === 'conv1d') rows.set(all.subarray(h * D * E, (h + 1) * D * E));
    // An nn.Linear's [out, in]: W_O^h[d][e] = W[e][h · D + d].
    else for (let d = 0; d < D; d++) for (let e = 0; e < E; e++) rows[d * E + e] = all[e * H * D + h * D + d];
    out.push(rows);
  }
  return out;
}

/** Columns [from, from + width) of x as their own [rows, width] array. */
export function columns(x: Rows, from: number, width: number, precision: Precision): Floats {
  const out = precision === 'f64' ? new Float64Array(x.rows * width) : new Float32Array(x.rows * width);
  for (let i = 0; i < x.rows; i++) out.set(x.data.subarray(i * x.cols + from, i * x.cols + from + width), i * width);
  return out;
}
