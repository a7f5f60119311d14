// The data an offline --html page carries: the header, the thumbnails, the rollout and the heads
// it holds, as base64 float32 inside JSON (in a <script type="application/json">, where the CLI
// escapes every "<"). Read and checked here; the page then serves the app's requests from it.
import type { ModelHeader } from '../../../src/core/model/data.js';
import { fromBase64 } from '../../../src/core/model/png.js';

export interface ModelPageData {
  header: ModelHeader;
  thumbnails: string;
  rollout?: string;
  /** "layer:head" → base64 float32 n × n. */
  heads: Record<string, string>;
  /**
   * "layer:head" → the head as the editor sends a big one: res × res colour indices (base64) and its
   * strongest weight, when the whole n × n was over the page's budget (src/core/budget.ts, MODEL_PAGE).
   */
  pictures?: Record<string, { res: number; indices: string; max: number }>;
  initial: { view?: string; layer?: number; head?: number; token?: number; stat?: string };
}

export function float32FromBase64(text: string): Float32Array {
  const bytes = fromBase64(text);
  return new Float32Array(bytes.slice(0, bytes.length - (bytes.length % 4)).buffer);
}
