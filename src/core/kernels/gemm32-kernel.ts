// The float32 product on the WebAssembly kernel (gemm32.wat, or gemm32-fma.wat where the runtime has
// relaxed SIMD): x packed once into row panels, block after block of depth (so the panels one call
// streams are contiguous), the weight packed one KC × NC tile at a time (widened from its stored type:
// gemm32-pack.wat, or pack32.ts), and one call into WebAssembly per block of MC rows × the tile.
// Any run of output columns can be computed alone (the threads split a product by columns), and
// every cell's sum runs t = 0, 1, 2, … whatever the blocking: a block of depth stores its float32
// sums in C and the next one loads them back, which rounds nothing. Of a product's CPU time at
// 1,024 × 2,048 → 2,048 the kernel takes 90%; packing and copying the rest.
//
// Returns false where the kernel cannot run (no WebAssembly SIMD, or more memory than MAX_BYTES);
// the caller then uses the plain JavaScript loops.
import { gemm32FmaWasmBase64, gemm32PackWasmBase64, gemm32WasmBase64 } from './gemm32-wasm.js';
import { packRows, packWeightTile, PANEL_COLS } from './pack32.js';
import { copyRows, packOnKernel, type Packer } from './pack32-wasm.js';
import type { StoredMatrix, WeightLayout } from './stored.js';

/** Which loop runs: 'fused' (relaxed SIMD's multiply-add) or 'plain' (separate multiply and add). */
export type KernelVariant = 'fused' | 'plain';

interface Kernel {
  readonly memory: WebAssembly.Memory;
  /** Rows per A panel. */
  readonly rows: number;
  readonly block: (
    pa: number, paStride: number, pb: number, pbStride: number, pc: number, ldc: number,
    panelsI: number, panelsJ: number, kc: number, accumulate: number,
  ) => void;
  /** gemm32-pack.wat on the same memory (undefined if it would not load: then JavaScript packs). */
  readonly pack: Packer | undefined;
}

/** Above this, a product falls back to JavaScript rather than hold a large buffer. */
export const MAX_BYTES = 1 << 30;
/** Memory an instance may keep between products. */
const KEEP_BYTES = 96 << 20;
/**
 * Packed rows of x per chunk at most (bytes): longer inputs are done a chunk of rows at a time, which
 * packs x again for every run of columns. 1,024 tokens × 8,192 (Llama's MLP down) is 32 MB: one chunk.
 */
const ROWS_BYTES = 48 << 20;
let rowsBytes = ROWS_BYTES;

/** Tests shrink the chunks of rows (bytes of packed x; undefined: back to the default) to check the chunked path on small inputs. */
export function useRowChunks(bytes: number | undefined): void {
  rowsBytes = bytes ?? ROWS_BYTES;
}

/** The most an nn.Linear tile's whole rows may take in the kernel's memory (512 rows × 8,192 × 4 B is 16 MB). */
const RAW_BYTES = 64 << 20;
// The blocking. Swept on this machine (GFLOP per CPU-second at 128 and 1,024 tokens): KC 192–512, NC
// 256–1,024 and MC 16–64 panels all came within 3% of each other; these sit in the middle.
/** Steps of depth per block: a B panel of 256 steps × 8 columns (8 KB) stays in L1 beside the A panel it meets. */
const KC = 256;
/** Columns per weight tile: 256 × 512 × 4 B = 512 KB, within L2 (1 MB a core here). */
const NC = 512;
/** Row panels per call: 32 panels of 6 rows × 256 steps × 4 B = 192 KB of A per block. */
const MC_PANELS = 32;

const kernels: Record<KernelVariant, Kernel | undefined | null> = { fused: null, plain: null }; // null: not tried
let choice: KernelVariant | 'js' | 'auto' = 'auto';
let usePacker = true;

/** Tests and the bench pick a loop ('js': neither) or leave it to what the runtime validates ('auto'). */
export function useKernel(which: KernelVariant | 'js' | 'auto'): void {
  choice = which;
}

/** Tests pack in JavaScript alone (false) to check the WebAssembly packing against it; the kernels are reloaded. */
export function useWasmPacking(on: boolean): void {
  usePacker = on;
  kernels.fused = kernels.plain = null;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function load(variant: KernelVariant): Kernel | undefined {
  const have = kernels[variant];
  if (have !== null) return have;
  kernels[variant] = undefined;
  try {
    if (typeof WebAssembly !== 'object') return undefined;
    const bytes = decodeBase64(variant === 'fused' ? gemm32FmaWasmBase64 : gemm32WasmBase64);
    if (!WebAssembly.validate(bytes)) return undefined; // no SIMD, or no relaxed SIMD for the fused loop
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
    const memory = exports.memory as WebAssembly.Memory;
    kernels[variant] = {
      memory,
      rows: (exports.rows as WebAssembly.Global).value as number,
      block: exports.block as Kernel['block'],
      pack: packerOn(memory),
    };
  } catch {
    kernels[variant] = undefined;
  }
  return kernels[variant];
}

function packerOn(memory: WebAssembly.Memory): Packer | undefined {
  try {
    if (!usePacker) return undefined;
    const exports = new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(gemm32PackWasmBase64)), { kernel: { memory } }).exports;
    return exports as unknown as Packer;
  } catch {
    return undefined;
  }
}

/** The loop products run on here, or undefined where only JavaScript runs. */
export function kernelVariant(): KernelVariant | undefined {
  if (choice === 'js') return undefined;
  if (choice !== 'auto') return load(choice) ? choice : undefined;
  // A fused loop validated once keeps being chosen; a runtime without it (or before its flag is set) gets the plain one.
  if (kernels.fused || (kernels.fused === null && load('fused'))) return 'fused';
  return load('plain') ? 'plain' : undefined;
}

const roundUp = (x: number, to: number) => Math.ceil(x / to) * to;

function floatsOf(kernel: Kernel, bytes: number): Float32Array | undefined {
  const have = kernel.memory.buffer.byteLength;
  if (bytes > have) {
    try {
      kernel.memory.grow(Math.ceil((bytes - have) / 65536));
    } catch {
      return undefined;
    }
  }
  return new Float32Array(kernel.memory.buffer);
}

/** The runs of output columns a thread computes, claimed one at a time (the threads share them out as they go). */
export interface ColumnRuns {
  /** The widest run there will be (for the memory the kernel sets aside). */
  readonly widest: number;
  /** The next run, j0…j1 − 1, or undefined when there are none left. */
  next(): readonly [number, number] | undefined;
  /** Run j0… is written. */
  done?(j0: number): void;
}

/**
 * Columns j0…j1 − 1 of x · W (or x · Wᵀ) into out (n rows, `ldo` floats apart, column j at j) on the
 * kernel `variant` (default: the one kernelVariant picks). k is the depth; x holds n × k floats.
 * False, with nothing written, where the kernel cannot run.
 */
export function productColumns(
  x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout,
  j0: number, j1: number, out: Float32Array, ldo: number, variant = kernelVariant(),
): boolean {
  let given = false;
  const one: ColumnRuns = { widest: j1 - j0, next: () => (given || j1 <= j0 ? undefined : ((given = true), [j0, j1])) };
  return productRuns(x, n, k, w, layout, one, out, ldo, variant);
}

/**
 * The columns of each run `runs` gives, as productColumns computes them, x packed once for them all
 * (unless x is so long that it is packed a chunk of rows at a time). False, with no run claimed,
 * where the kernel cannot run.
 */
export function productRuns(
  x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout,
  runs: ColumnRuns, out: Float32Array, ldo: number, variant = kernelVariant(),
): boolean {
  const kernel = variant && choice !== 'js' ? load(variant) : undefined;
  if (!kernel) return false;
  const MR = kernel.rows, NR = PANEL_COLS;
  // Chunks of rows as even as whole panels allow (not a full one and a sliver).
  const most = Math.max(MR, Math.floor(rowsBytes / (4 * Math.max(k, 1) * MR)) * MR);
  const chunkRows = roundUp(Math.ceil(Math.max(n, 1) / Math.ceil(Math.max(n, 1) / most)), MR);
  const nc = Math.min(NC, roundUp(Math.max(runs.widest, 1), NR));
  // An nn.Linear tile's raw numbers are its weight rows over the whole depth, copied at once (one
  // memcpy, not one per column per block of depth); a Conv1D tile's, one block of depth.
  const wholeRows = layout === 'out-in' && kernel.pack !== undefined && 4 * nc * k <= RAW_BYTES;
  const aFloats = chunkRows * k, bFloats = Math.min(KC, k) * nc, cFloats = chunkRows * nc, rawFloats = wholeRows ? nc * k : bFloats;
  const bytes = 4 * (aFloats + bFloats + cFloats + rawFloats);
  if (bytes > MAX_BYTES) return false;
  const F = floatsOf(kernel, bytes);
  if (!F) return false;
  const aAt = 0, bAt = aFloats, cAt = aFloats + bFloats, rawAt = cAt + cFloats;
  let packed = -1; // the first row of the chunk of x now packed
  for (let run = runs.next(); run; run = runs.next()) {
    const [j0, j1] = run;
    if (k === 0) for (let i = 0; i < n; i++) out.fill(0, i * ldo + j0, i * ldo + j1);
    for (let i0 = 0; i0 < n && k > 0; i0 += chunkRows) {
      const rows = Math.min(chunkRows, n - i0), rowsPad = roundUp(rows, MR);
      if (packed !== i0) packRows(F, aAt, x, k, i0, rows, MR, KC);
      packed = i0;
      for (let c0 = j0; c0 < j1; c0 += nc) {
        const tileCols = Math.min(nc, j1 - c0), tilePad = roundUp(tileCols, NR);
        if (wholeRows) copyRows(kernel.memory, w, c0, tileCols, rawAt);
        for (let t0 = 0; t0 < k; t0 += KC) {
          const kc = Math.min(KC, k - t0);
          if (!packOnKernel(kernel.memory, kernel.pack, w, layout, wholeRows, t0, kc, c0, tileCols, bAt, rawAt)) packWeightTile(F, bAt, w, layout, t0, kc, c0, tileCols);
          for (let p0 = 0; p0 < rowsPad / MR; p0 += MC_PANELS) {
            const panels = Math.min(MC_PANELS, rowsPad / MR - p0);
            kernel.block((aAt + t0 * rowsPad + p0 * MR * kc) * 4, MR * kc * 4, bAt * 4, NR * kc * 4,
              (cAt + p0 * MR * tilePad) * 4, tilePad * 4, panels, tilePad / NR, kc, t0 > 0 ? 1 : 0);
          }
        }
        for (let r = 0; r < rows; r++) {
          const from = cAt + r * tilePad;
          out.set(F.subarray(from, from + tileCols), (i0 + r) * ldo + c0);
        }
      }
    }
    runs.done?.(j0);
  }
  // A memory cannot shrink: after a large product let the instance go (rebuilt in microseconds).
  if (kernel.memory.buffer.byteLength > KEEP_BYTES) kernels[variant!] = null;
  return true;
}
