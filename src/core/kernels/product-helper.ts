// The other cores of a float32 product, where the runtime has them: the core computes the first run of
// a product's output columns on its own thread while an installed ProductHelper computes the rest
// elsewhere (core/threads/kernel-thread.ts: Node's worker threads). The core knows no threads; where
// nothing is installed (a browser, vscode.dev, ATTN_THREADS=1) every column is computed here. Any split
// gives the same bits, since a cell's sum order depends on the depth alone.
import type { KernelVariant } from './gemm32-kernel.js';
import type { StoredMatrix, WeightLayout } from './stored.js';

/** Columns handed over: the caller computes 0…own − 1, then finish() waits for the rest and writes them into the output. */
export interface HelpedColumns {
  readonly own: number;
  finish(): void;
}

export interface ProductHelper {
  /**
   * Starts columns own…m − 1 of x · W (x: n × k; the result n × m into `out`) on other threads, on the
   * same kernel `variant`; undefined when it takes none (too little work, or the weight cannot be shared).
   */
  start(x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout, variant: KernelVariant, out: Float32Array): HelpedColumns | undefined;
}

let installed: ProductHelper | undefined;

/** Installs (or, with undefined, removes) the helper every later gemmStored uses. */
export function installProductHelper(helper: ProductHelper | undefined): void {
  installed = helper;
}

export function productHelper(): ProductHelper | undefined {
  return installed;
}
