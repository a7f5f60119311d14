// The other cores of a float32 product, where the runtime has them: an installed ProductHelper
// (core/threads/kernel-thread.ts: Node's worker threads) shares a product's output columns out between
// the calling thread and others. The core knows no threads; where
// nothing is installed (a browser, vscode.dev, ATTN_THREADS=1) every column is computed here. Any split
// gives the same bits, since a cell's sum order depends on the depth alone.
import type { KernelVariant } from './gemm32-kernel.js';
import type { StoredMatrix, WeightLayout } from './stored.js';

export interface ProductHelper {
  /**
   * x · W (x: n × k; the result n × m into `out`, which is all zeros) on this thread and others, all
   * on the kernel `variant`; false when it takes none of it (too little work, a weight it cannot share):
   * then the caller computes it alone.
   */
  product(x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout, variant: KernelVariant, out: Float32Array): boolean;
  /**
   * Starts the other threads now, without waiting for them, so that they boot while the caller does
   * something else (reads the weights) rather than in the first product.
   */
  prepare?(): void;
}

let installed: ProductHelper | undefined;

/** Installs (or, with undefined, removes) the helper every later gemmStored uses. */
export function installProductHelper(helper: ProductHelper | undefined): void {
  installed = helper;
}

export function productHelper(): ProductHelper | undefined {
  return installed;
}
