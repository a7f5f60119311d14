// The data an offline --html page carries: the header, the thumbnails, the rollout and the heads
// it holds, as base64 inside JSON (in <script type="application/json"> elements, where the CLI
// escapes every "<"): the thumbnails and the header before the page's script, the rest after it.
// Read here; the page then serves the app's requests from it.
import type { ModelHeader } from '../../../src/core/model-attention/data.js';
import { fromBase64 } from '../../../src/core/image/png.js';

export interface ModelPageData {
  header: ModelHeader;
  /** Base64 of the thumbnails' colour indices (thumbnailIndices: the editor's message, a quarter of float32's bytes, the same picture). */
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

/**
 * What the page writes after its script, in parts (one a head; read when a head or the rollout is
 * asked for); the rest of ModelPageData comes before the script, for the first paint.
 */
export type ModelPageLate = Partial<Pick<ModelPageData, 'heads' | 'pictures' | 'rollout'>>;

/** The page's data in two: the first part (before the script) and the large one, a part per head (after it). */
export function splitPageData(data: ModelPageData): { first: Omit<ModelPageData, keyof ModelPageLate>; late: ModelPageLate[] } {
  const { heads, pictures, rollout, ...first } = data;
  return {
    first,
    late: [
      ...Object.entries(heads).map(([key, weights]) => ({ heads: { [key]: weights } })),
      ...Object.entries(pictures ?? {}).map(([key, picture]) => ({ pictures: { [key]: picture } })),
      ...(rollout !== undefined ? [{ rollout }] : []),
    ],
  };
}

/** The large part's objects put together again (what the page read). */
export function joinPageLate(parts: readonly ModelPageLate[]): Required<Pick<ModelPageData, 'heads'>> & ModelPageLate {
  const joined: Required<Pick<ModelPageData, 'heads'>> & ModelPageLate = { heads: {} };
  for (const part of parts) {
    Object.assign(joined.heads, part.heads);
    if (part.pictures) joined.pictures = { ...joined.pictures, ...part.pictures };
    if (part.rollout !== undefined) joined.rollout = part.rollout;
  }
  return joined;
}

export function float32FromBase64(text: string): Float32Array {
  const bytes = fromBase64(text);
  return new Float32Array(bytes.slice(0, bytes.length - (bytes.length % 4)).buffer);
}
