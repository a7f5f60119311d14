// Matrix products on the WebAssembly kernel (gemm.wat): the operands are packed into the module's
// memory in the panels the kernel reads, multiplied 4 × 4 cells at a time in cache-sized blocks
// (one call into WebAssembly per block: its loops over the panels are in gemm.wat), and copied out.
// Plain JavaScript tops out near 2–3 GFLOP/s on float64; the SIMD kernel does 14–18, which is what
// brings a 512-token, 12-head layer within reach of numpy and PyTorch.
//
// Results are bit for bit those of the plain triple loop: every cell is summed in the order
// t = 0, 1, 2, … from +0 with separate multiplies and adds. Rows of A that end in exact zeros
// (the weights of a causal mask) skip those steps: adding +0·b or −0·b to a sum that starts at +0
// never changes it, as long as b is finite, which is checked while packing B.
//
// Returns undefined where the kernel cannot run (no WebAssembly SIMD, or more memory than
// MAX_BYTES); the caller then uses the plain JavaScript loops.
import { gemmWasmBase64 } from './gemm-wasm.js';

interface Kernel {
  readonly memory: WebAssembly.Memory;
  readonly block: (
    pa: number, paStride: number, pb: number, pbStride: number, pc: number, ldc: number, pends: number,
    panelsI: number, panelsJ: number, t0: number, kc: number, ldb: number, accumulate: number,
  ) => void;
}

interface Operand {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

/** Above this, the products fall back to JavaScript rather than hold a large buffer for the session. */
export const MAX_BYTES = 1 << 30;
/** Memory the instance may keep between products (a 512-token, 768-wide layer needs about 12 MB). */
const KEEP_BYTES = 64 << 20;
/** Steps of t per block (8 KB per panel, so an A panel and a B panel sit together in L1). */
const KC = 256;
/** Rows of A per block (64 × 256 × 8 B = 128 KB, within L2). */
const MC = 64;

let kernel: Kernel | undefined | null = null; // null: not tried yet; undefined: cannot run here
let enabled = true;

/** Tests turn the kernel off to check the JavaScript path on the same cases. */
export function useWasmKernel(on: boolean): void {
  enabled = on;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function load(): Kernel | undefined {
  if (kernel !== null) return kernel;
  kernel = undefined;
  try {
    if (typeof WebAssembly !== 'object') return undefined;
    const bytes = decodeBase64(gemmWasmBase64);
    if (!WebAssembly.validate(bytes)) return undefined; // a runtime without SIMD
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
    kernel = { memory: exports.memory as WebAssembly.Memory, block: exports.block as Kernel['block'] };
  } catch {
    kernel = undefined;
  }
  return kernel;
}

/** How much memory the kernel holds now (0 when it holds none), for the test of KEEP_BYTES. */
export function wasmMemoryBytes(): number {
  return kernel ? kernel.memory.buffer.byteLength : 0;
}

/** Whether the products run on the WebAssembly kernel here (for the bench's caption). */
export function wasmKernelAvailable(): boolean {
  return enabled && load() !== undefined;
}

const round4 = (x: number) => (x + 3) & ~3;

function memoryFor(k: Kernel, bytes: number): Float64Array | undefined {
  const have = k.memory.buffer.byteLength;
  if (bytes > have) {
    try {
      k.memory.grow(Math.ceil((bytes - have) / 65536));
    } catch {
      return undefined;
    }
  }
  return new Float64Array(k.memory.buffer);
}

/**
 * Packs A (n × k, row-major) into panels of 4 rows at word offset `at`, and returns, per panel,
 * how many leading steps hold a non-zero entry in any of its rows (the rest are skipped).
 */
function packA(F: Float64Array, at: number, a: Operand): Int32Array {
  const n = a.rows, k = a.cols, A = a.data;
  const panels = round4(n) >> 2;
  const ends = new Int32Array(panels);
  for (let i = 0; i < n; i++) {
    const src = i * k;
    let o = at + (i >> 2) * k * 4 + (i & 3);
    for (let t = 0; t < k; t++, o += 4) F[o] = A[src + t];
    let end = k;
    while (end > 0 && A[src + end - 1] === 0) end--;
    if (end > ends[i >> 2]) ends[i >> 2] = end;
  }
  for (let i = n; i < round4(n); i++) {
    let o = at + (i >> 2) * k * 4 + (i & 3);
    for (let t = 0; t < k; t++, o += 4) F[o] = 0;
  }
  return ends;
}

/** Packs B (m × k; the product is A · Bᵀ) into panels of 4 columns at word offset `at`. */
function packTransposedB(F: Float64Array, at: number, b: Operand): void {
  const B = b.data, m = b.rows, k = b.cols;
  for (let j = 0; j < m; j++) {
    const src = j * k;
    let o = at + (j >> 2) * k * 4 + (j & 3);
    for (let t = 0; t < k; t++, o += 4) F[o] = B[src + t];
  }
  for (let j = m; j < round4(m); j++) {
    let o = at + (j >> 2) * k * 4 + (j & 3);
    for (let t = 0; t < k; t++, o += 4) F[o] = 0;
  }
}

/** Whether every entry is finite: a sum that stays ±0 unless one is ±Infinity or NaN. */
function allFinite(data: Float64Array): boolean {
  let probe = 0;
  for (let i = 0; i < data.length; i++) probe += data[i] * 0;
  return probe === 0;
}

/**
 * C = A · B into the padded n4 × m4 block at word offset `cAt`, then copied out as n × m. A is packed
 * at `aAt`; B is either packed in panels there (`transposed`: the product is A · Bᵀ) or copied as it
 * is, k × m row-major, and read in place 4 columns at a time (the columns past m land in C's padding,
 * and the last row's overreach stays inside B's k × round4(m) words).
 */
function multiply(
  k: Kernel, F: Float64Array, aAt: number, rowEnds: Int32Array, b: Operand, transposed: boolean,
  bAt: number, cAt: number, endsAt: number, n: number, depth: number,
): Float64Array {
  const m = transposed ? b.rows : b.cols;
  const n4 = round4(n), m4 = round4(m), ldc = m4 * 8;
  if (transposed) packTransposedB(F, bAt, b);
  else F.set(b.data.subarray(0, depth * m), bAt); // only rows × cols, whatever the array behind it
  // Skipping the zero ends of A's rows is exact only if B is finite (0 · ∞ is NaN).
  const skips = rowEnds.some((end) => end < depth);
  const ends = skips && !allFinite(b.data.subarray(0, depth * m)) ? rowEnds.map(() => depth) : rowEnds;
  new Int32Array(F.buffer, endsAt * 8, ends.length).set(ends);
  const ldb = transposed ? 32 : m * 8;
  const pbStride = transposed ? 32 * depth : 32;
  for (let t0 = 0; t0 < depth; t0 += KC) {
    // The first block writes every cell (from +0, even with no steps to do); later ones add to it.
    const accumulate = t0 > 0 ? 1 : 0;
    const pb = (transposed ? bAt + t0 * 4 : bAt + t0 * m) * 8;
    for (let i0 = 0; i0 < n4; i0 += MC) {
      const panels = (Math.min(n4, i0 + MC) - i0) >> 2;
      k.block((aAt + i0 * depth + t0 * 4) * 8, 32 * depth, pb, pbStride, (cAt + i0 * m4) * 8, ldc,
        endsAt * 8 + i0, panels, m4 >> 2, t0, KC, ldb, accumulate);
    }
  }
  const out = new Float64Array(n * m);
  if (m === m4) out.set(F.subarray(cAt, cAt + n * m));
  else for (let i = 0; i < n; i++) out.set(F.subarray(cAt + i * m4, cAt + i * m4 + m), i * m);
  return out;
}

/**
 * a · b for each b in `bs` (b is k × m, or m × k with `transposed`), packing a once: the three
 * projections of every head share the embeddings. Undefined where the kernel cannot run.
 */
export function gemmEach(a: Operand, bs: readonly Operand[], transposed: boolean): Float64Array[] | undefined {
  if (!enabled) return undefined;
  const n = a.rows, depth = a.cols;
  const widest = bs.reduce((w, b) => Math.max(w, transposed ? b.rows : b.cols), 0);
  const aWords = round4(n) * depth, bWords = round4(widest) * depth, cWords = round4(n) * round4(widest);
  const endsWords = round4(n) >> 3; // one int32 per row panel, two to a word
  const bytes = (aWords + bWords + cWords + endsWords + 1) * 8;
  if (bytes > MAX_BYTES) return undefined;
  const k = load();
  if (!k) return undefined;
  if (n === 0 || depth === 0 || widest === 0) {
    return bs.map((b) => new Float64Array(n * (transposed ? b.rows : b.cols)));
  }
  const F = memoryFor(k, bytes);
  if (!F) return undefined;
  const rowEnds = packA(F, 0, a);
  const products = bs.map((b) => multiply(k, F, 0, rowEnds, b, transposed, aWords, aWords + bWords, aWords + bWords + cWords, n, depth));
  // A memory cannot shrink: after a large product, let the instance go (it is rebuilt in
  // microseconds) rather than hold its buffer for the rest of the session.
  if (k.memory.buffer.byteLength > KEEP_BYTES) kernel = null;
  return products;
}

/** a · b (or a · bᵀ with `transposed`) on the kernel, or undefined where it cannot run. */
export function gemm(a: Operand, b: Operand, transposed: boolean): Float64Array | undefined {
  return gemmEach(a, [b], transposed)?.[0];
}
