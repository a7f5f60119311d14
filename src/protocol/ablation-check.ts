// The checks of what the model editor's messages say of ablated heads: the heads a webview asks to
// switch off (each inside the model, none twice), and the ablated run the host reports (its heads,
// mode, next tokens and logit differences). A webview is untrusted, and so is a host message until
// checked: a head outside the model would make the run fail, or the grid mark a cell that is not there.
import { ABLATION_MODES, type AblationMode } from '../core/model-analysis/types.js';
import { isObject } from '../core/json/object.js';
import { shown } from '../core/json/shown.js';

const isIndex = (x: unknown, below: number): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < below;
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The most heads one message may name (the largest model the views take has no more). */
export const MAX_ABLATED = 16384;

/** Why `heads` is not a list of distinct heads of a layers × heads model, or undefined. */
export function headListProblem(heads: unknown, layers: number, perLayer: number): string | undefined {
  if (!Array.isArray(heads) || heads.length > Math.min(MAX_ABLATED, layers * perLayer)) return `heads that are not a list of at most ${Math.min(MAX_ABLATED, layers * perLayer)}`;
  const seen = new Set<number>();
  for (const h of heads as unknown[]) {
    if (!isObject(h) || !isIndex(h.layer, layers) || !isIndex(h.head, perLayer)) {
      return `no head ${isObject(h) ? `${shown(h.layer)}, ${shown(h.head)}` : shown(h)} in ${layers} × ${perLayer}`;
    }
    const k = (h.layer as number) * perLayer + (h.head as number);
    if (seen.has(k)) return `head ${h.layer as number}, ${h.head as number} named twice`;
    seen.add(k);
  }
  return undefined;
}

export function isAblationMode(x: unknown): x is AblationMode {
  return ABLATION_MODES.includes(x as AblationMode);
}

/** Why a run message's `ablation` is not the ablated run's heads, mode and numbers, or undefined (`tokensProblem`: the run's check of a token list). */
export function runAblationProblem(a: unknown, tokensProblem: (tokens: unknown[]) => boolean, maxNext: number): string | undefined {
  if (!isObject(a)) return 'an ablation that is not an object';
  // The header may not be read yet: the heads are checked for shape here, against the model where drawn.
  const heads = headListProblem(a.heads, MAX_ABLATED, MAX_ABLATED);
  if (heads) return `an ablation with ${heads}`;
  if (!isAblationMode(a.mode)) return `an ablation whose mode is not ${ABLATION_MODES.join(' or ')}`;
  if (!Array.isArray(a.next) || a.next.length > maxNext || tokensProblem(a.next)) return 'an ablation whose next tokens are not { id, token, p in [0, 1] }';
  if (!isNum(a.logitDiff) || !isNum(a.baseLogitDiff)) return 'an ablation without its logit differences';
  if (!Number.isInteger(a.target) || !(a.contrast === null || Number.isInteger(a.contrast))) return 'an ablation without its target';
  return undefined;
}
