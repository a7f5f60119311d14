// The packing step of the float32 kernel: operands copied into the panels gemm32.wat reads, the weight
// widened from its stored type on the way (F32 as is, F64 rounded to nearest, F16 through the
// 65,536-entry table, BF16 by shifting its word into a float32's top half). The weight is packed one
// depth × columns tile at a time, so no float32 copy of a whole weight matrix ever exists.
import { halfTable32, type StoredMatrix, type WeightLayout } from './stored.js';

/** Columns per B panel (gemm32.wat's and gemm32-fma.wat's width). */
export const PANEL_COLS = 8;

/**
 * Rows i0…i0 + rows − 1 of x (n × k row-major) into panels of `mr` rows at float index `at`, one block
 * of `kc` steps of depth after another: block b (steps b·kc…) starts at at + b·kc·rowsPad and holds
 * each panel's a[t][0..mr − 1] for its steps, so the panels a call of the kernel streams are
 * contiguous; rows past the chunk's end (up to rowsPad) are zeros.
 */
export function packRows(F: Float32Array, at: number, x: Float32Array, k: number, i0: number, rows: number, mr: number, kc: number): void {
  const rowsPad = Math.ceil(rows / mr) * mr;
  for (let t0 = 0; t0 < k; t0 += kc) {
    const steps = Math.min(kc, k - t0), block = at + t0 * rowsPad;
    for (let r = 0; r < rowsPad; r++) {
      let o = block + Math.floor(r / mr) * mr * steps + (r % mr);
      if (r < rows) {
        const src = (i0 + r) * k + t0;
        for (let t = 0; t < steps; t++, o += mr) F[o] = x[src + t];
      } else {
        for (let t = 0; t < steps; t++, o += mr) F[o] = 0;
      }
    }
  }
}

// One function per stored type, each only ever given one kind of array: a load from an array whose
// kind varies is megamorphic in V8 and cost the packing 2–3 ns a number, more than the kernel's own time
// at a few tokens.

/** `count` numbers from d at s on into F at o, `step` apart. */
function stridedF32(F: Float32Array, o: number, step: number, d: Float32Array, s: number, count: number): void {
  for (let i = 0; i < count; i++, o += step) F[o] = d[s + i];
}
function stridedF64(F: Float32Array, o: number, step: number, d: Float64Array, s: number, count: number): void {
  for (let i = 0; i < count; i++, o += step) F[o] = d[s + i];
}
function stridedF16(F: Float32Array, o: number, step: number, d: Uint16Array, s: number, count: number, table: Float32Array): void {
  for (let i = 0; i < count; i++, o += step) F[o] = table[d[s + i]];
}
function stridedBF16(bits: Uint32Array, o: number, step: number, d: Uint16Array, s: number, count: number): void {
  for (let i = 0; i < count; i++, o += step) bits[o] = d[s + i] << 16;
}

/** Copies `count` stored numbers from s on into F at o, `step` apart, widened. */
function strided(F: Float32Array, bits: Uint32Array, o: number, step: number, w: StoredMatrix, s: number, count: number): void {
  switch (w.dtype) {
    case 'F32': return stridedF32(F, o, step, w.data as Float32Array, s, count);
    case 'F64': return stridedF64(F, o, step, w.data as Float64Array, s, count);
    case 'F16': return stridedF16(F, o, step, w.data as Uint16Array, s, count, halfTable32());
    case 'BF16': return stridedBF16(bits, o, step, w.data as Uint16Array, s, count);
  }
}

/**
 * Output columns j0…j0 + cols − 1 of the weight over depth t0…t0 + kc − 1 into panels of
 * PANEL_COLS at float index `at`: panel p holds b[t][0..7] for the tile's kc steps; columns past
 * the tile's end are zeros. 'out-in' reads each column's run of depth contiguously, 'in-out' each
 * step's run of columns, eight to a panel.
 */
export function packWeightTile(
  F: Float32Array, at: number, w: StoredMatrix, layout: WeightLayout, t0: number, kc: number, j0: number, cols: number,
): void {
  const NR = PANEL_COLS, panels = Math.ceil(cols / NR);
  const bits = new Uint32Array(F.buffer, F.byteOffset, F.length);
  if (layout === 'out-in') {
    const k = w.cols;
    for (let c = 0; c < panels * NR; c++) {
      const o = at + Math.floor(c / NR) * NR * kc + (c % NR);
      if (c < cols) strided(F, bits, o, NR, w, (j0 + c) * k + t0, kc);
      else for (let t = 0; t < kc; t++) F[o + t * NR] = 0;
    }
    return;
  }
  const m = w.cols;
  for (let t = 0; t < kc; t++) {
    const row = (t0 + t) * m + j0;
    for (let p = 0; p < panels; p++) {
      const o = at + p * NR * kc + t * NR, run = Math.min(NR, cols - p * NR);
      strided(F, bits, o, 1, w, row + p * NR, run);
      for (let c = run; c < NR; c++) F[o + c] = 0;
    }
  }
}
