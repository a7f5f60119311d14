// The packing step of the float32 kernel on gemm32-pack.wat (SIMD widening and gathering in the
// kernel's own memory), fed by JavaScript's bulk copies of the weight's raw numbers: TypedArray.set is
// a memcpy, where packing number by number in JavaScript cost 1.5–2 ns each. pack32.ts packs where
// this module did not load.
import { PANEL_COLS } from './pack32.js';
import { halfTable32, type StoredMatrix, type WeightLayout } from './stored.js';

/** gemm32-pack.wat's exports: byte addresses in the kernel's memory. */
export interface Packer {
  readonly rowsBF16: (src: number, srcStride: number, dst: number, kc: number, panels: number) => void;
  readonly rowsF32: (src: number, srcStride: number, dst: number, kc: number, panels: number) => void;
  readonly columnsBF16: (src: number, col: number, dst: number, kc: number, panels: number) => void;
  readonly columnsF32: (src: number, col: number, dst: number, kc: number, panels: number) => void;
}

/** F16 words widened through the table into a contiguous run (the one array kind this loop sees). */
function halvesInto(raw: Float32Array, at: number, d: Uint16Array, from: number, count: number, table: Float32Array): void {
  for (let i = 0; i < count; i++) raw[at + i] = table[d[from + i]];
}

/**
 * Rows j0…j0 + cols − 1 of an nn.Linear weight ([out, in]: contiguous), every step of depth, to float
 * index `rawAt` as packOnKernel reads them (BF16 as raw words, the rest as float32), and zero rows up
 * to a whole panel.
 */
export function copyRows(memory: WebAssembly.Memory, w: StoredMatrix, j0: number, cols: number, rawAt: number): void {
  const k = w.cols, padded = Math.ceil(cols / PANEL_COLS) * PANEL_COLS, from = j0 * k, count = cols * k;
  if (w.dtype === 'BF16') {
    const raw = new Uint16Array(memory.buffer, rawAt * 4, padded * k);
    raw.set((w.data as Uint16Array).subarray(from, from + count));
    raw.fill(0, count);
    return;
  }
  const raw = new Float32Array(memory.buffer, rawAt * 4, padded * k);
  if (w.dtype === 'F16') halvesInto(raw, 0, w.data as Uint16Array, from, count, halfTable32());
  else raw.set(w.data.subarray(from, from + count));
  raw.fill(0, count);
}

/**
 * Packs a weight tile on gemm32-pack.wat into panels at `bAt`, from its raw numbers at float index
 * `rawAt`: an nn.Linear's ('out-in') rows copyRows put there for every block of depth; a Conv1D's
 * ('in-out') copied here a step at a time (BF16 as raw words; F32 as they are and F64 rounded, both by
 * TypedArray.set; F16 through the table). False where the packer did not load, or an nn.Linear's rows
 * were too long to copy whole (then JavaScript packs).
 */
export function packOnKernel(
  memory: WebAssembly.Memory, pack: Packer | undefined, w: StoredMatrix, layout: WeightLayout, wholeRows: boolean,
  t0: number, kc: number, j0: number, cols: number, bAt: number, rawAt: number,
): boolean {
  if (!pack || (layout === 'out-in' && !wholeRows)) return false;
  const words = w.dtype === 'BF16', size = words ? 2 : 4, NR = PANEL_COLS, panels = Math.ceil(cols / NR), padded = panels * NR;
  if (layout === 'out-in') {
    (words ? pack.columnsBF16 : pack.columnsF32)(rawAt * 4 + t0 * size, w.cols * size, bAt * 4, kc, panels);
    return true;
  }
  const raw = words ? new Uint16Array(memory.buffer, rawAt * 4) : new Float32Array(memory.buffer, rawAt * 4);
  const table = w.dtype === 'F16' ? halfTable32() : undefined;
  const run = (from: number, count: number, at: number) => {
    if (table) halvesInto(raw as Float32Array, at, w.data as Uint16Array, from, count, table);
    else raw.set(w.data.subarray(from, from + count), at);
  };
  const m = w.cols;
  for (let t = 0; t < kc; t++) {
    run((t0 + t) * m + j0, cols, t * padded);
    if (cols < padded) raw.fill(0, t * padded + cols, (t + 1) * padded);
  }
  (words ? pack.rowsBF16 : pack.rowsF32)(rawAt * 4, padded * size, bAt * 4, kc, panels);
  return true;
}
