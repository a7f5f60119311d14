// What the Spectrum, Heads and Covariance views do first: find the linear-algebra numbers in the
// result, or say why there are none (still being worked out, or too large for the panel).
import type { AttentionData } from '../../../src/core/result/attention-data.js';
import type { LinalgJson } from '../../../src/core/result/linalg-json.js';
import { emptyView, type ViewHandle, type ViewOptions } from '../../kit/view.js';

/** The numbers, or an empty view with a sentence: "Working out the spectra…", or the reason they are too large. */
export function linalgOrSay(container: HTMLElement, data: AttentionData, options: ViewOptions, view: string, what: string): LinalgJson | ViewHandle {
  const l = data.linalg;
  if (!l) return emptyView(container, options.theme, options.width, view, `Working out the ${what}…`);
  if (l.tooBig) return emptyView(container, options.theme, options.width, view, l.tooBig);
  return l;
}

export const isHandle = (x: LinalgJson | ViewHandle): x is ViewHandle => 'svg' in x;
