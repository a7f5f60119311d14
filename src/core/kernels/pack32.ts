// The packing step of the float32 kernel: operands copied into the panels gemm32.wat reads, the weight
// widened from its stored type on the way (F32 as is, F64 rounded to nearest, F16 through the
// 65,536-entry table, BF16 by shifting its word into a float32's top half). The weight is packed one
// depth × columns tile at a time, so no float32 copy of a whole weight matrix ever exists.
import { halfTable32, type StoredMatrix, type WeightLayout } from './stored.js';

/** Columns per B panel (gemm32.wat's and gemm32-fma.wat's width). */
export const PANEL_COLS = 8;

/**
 * Rows i0…i0 + rows − 1 of x (n × k row-major) into panels of `mr` rows at float index `at`: panel p
 * holds a[t][0..mr − 1] for t = 0…k − 1 (so any depth slice of a panel is contiguous); rows past the
 * chunk's end are zeros.
 */
export function packRows(F: Float32Array, at: number, x: Float32Array, k: number, i0: number, rows: number, mr: number): void {
  const panels = Math.ceil(rows / mr);
  for (let r = 0; r < panels * mr; r++) {
    let o = at + Math.floor(r / mr) * mr * k + (r % mr);
    if (r < rows) {
      const src = (i0 + r) * k;
      for (let t = 0; t < k; t++, o += mr) F[o] = x[src + t];
    } else {
      for (let t = 0; t < k; t++, o += mr) F[o] = 0;
    }
  }
}

/**
 * Output columns j0…j0 + cols − 1 of the weight over depth t0…t0 + kc − 1 into panels of
 * PANEL_COLS at float index `at`: panel p holds b[t][0..7] for the tile's kc steps; columns past
 * the tile's end are zeros. 'out-in' reads each column's run of depth contiguously, 'in-out' each
 * step's run of columns.
 */
export function packWeightTile(
  F: Float32Array, at: number, w: StoredMatrix, layout: WeightLayout, t0: number, kc: number, j0: number, cols: number,
): void {
  const NR = PANEL_COLS, panels = Math.ceil(cols / NR), k = layout === 'out-in' ? w.cols : w.rows;
  const bits = new Uint32Array(F.buffer, F.byteOffset, F.length);
  const d = w.data, table = w.dtype === 'F16' ? halfTable32() : undefined, bf16 = w.dtype === 'BF16';
  if (layout === 'out-in') {
    for (let c = 0; c < panels * NR; c++) {
      let o = at + Math.floor(c / NR) * NR * kc + (c % NR);
      if (c >= cols) {
        for (let t = 0; t < kc; t++, o += NR) F[o] = 0;
        continue;
      }
      const src = (j0 + c) * k + t0, end = src + kc;
      if (bf16) for (let s = src; s < end; s++, o += NR) bits[o] = d[s] << 16;
      else if (table) for (let s = src; s < end; s++, o += NR) F[o] = table[d[s]];
      else for (let s = src; s < end; s++, o += NR) F[o] = d[s];
    }
    return;
  }
  const m = w.cols, full = Math.floor(cols / NR);
  for (let t = 0; t < kc; t++) {
    const row = (t0 + t) * m + j0;
    // The whole panels: eight contiguous words of the step's row each.
    for (let p = 0; p < full; p++) {
      const o = at + p * NR * kc + t * NR, s = row + p * NR;
      if (bf16) for (let c = 0; c < NR; c++) bits[o + c] = d[s + c] << 16;
      else if (table) for (let c = 0; c < NR; c++) F[o + c] = table[d[s + c]];
      else for (let c = 0; c < NR; c++) F[o + c] = d[s + c];
    }
    if (full < panels) {
      const o = at + full * NR * kc + t * NR, s = row + full * NR, left = cols - full * NR;
      for (let c = 0; c < NR; c++) {
        if (c >= left) F[o + c] = 0;
        else if (bf16) bits[o + c] = d[s + c] << 16;
        else if (table) F[o + c] = table[d[s + c]];
        else F[o + c] = d[s + c];
      }
    }
  }
}
