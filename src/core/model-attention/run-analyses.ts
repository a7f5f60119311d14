// What the model views know of a run beyond its attention and next tokens: direct logit attribution,
// activation patching and the generated tokens (sent with the run), and the logit lens (sent when
// its view first asks). Pure: the webview bundles it, and the editor's messages are checked by it.
import type { NextToken } from '../checkpoint/types.js';
import type { Attribution } from '../model-analysis/types.js';
import { isObject } from '../json/object.js';

export interface RunAnalyses {
  /** The spec's "target" and "contrast" as written (a token's text, or its id as digits). */
  target?: string;
  contrast?: string;
  attribution?: Attribution;
  /** [layer][head]: (m_patched − m_corrupted) / (m_clean − m_corrupted). */
  patching?: number[][];
  /** Whether the spec asked for patching (a "patchFrom"). */
  patchFrom?: boolean;
  /** The run's greedy new tokens, in order: the run's last positions. */
  generated?: { id: number; token: string }[];
  /** Positions of the run: the text's tokens then the generated ones. */
  positions: number;
  /** Positions the views show now: the text's and the generated tokens up to the step (all, unless stepped). */
  shown: number;
  /** [layer][position] → the five most likely tokens after that layer (once asked for and computed). */
  logitLens?: NextToken[][][];
  /** Why the logit lens could not be computed. */
  logitLensError?: string;
}

/** The most layers, heads or positions a message's arrays may have (the model views' limits: a run of 8,192 tokens and what it generates). */
const MAX_ROWS = 16384, MAX_POSITIONS = 8192 + 256, MAX_TEXT = 1000;

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isCount = (x: unknown, max: number): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= max;

/** Whether `x` is a list of at most `max` lists of finite numbers, all as long as the first. */
function isTable(x: unknown, max = MAX_ROWS): x is number[][] {
  if (!Array.isArray(x) || x.length > max) return false;
  const width = Array.isArray(x[0]) ? x[0].length : -1;
  return x.every((row) => Array.isArray(row) && row.length === width && width <= max && row.every(isNum));
}

/** Why an attribution is not one (ids, [layer][head], [layer] twice, finite numbers), or undefined. */
export function attributionProblem(a: unknown): string | undefined {
  if (!isObject(a)) return 'an attribution that is not an object';
  if (!Number.isInteger(a.target) || !(a.contrast === null || Number.isInteger(a.contrast))) return 'an attribution whose target or contrast is not a token id';
  if (!isTable(a.heads) || a.heads.length === 0) return 'an attribution whose heads are not [layer][head] numbers';
  const layers = a.heads.length;
  for (const key of ['attentionBias', 'mlps'] as const) {
    const v = a[key];
    if (!Array.isArray(v) || v.length !== layers || !v.every(isNum)) return `an attribution whose ${key} is not one number per layer`;
  }
  for (const key of ['embed', 'normBias', 'total'] as const) if (!isNum(a[key])) return `an attribution whose ${key} is not a finite number`;
  if (a.headBias !== undefined && !isNum(a.headBias)) return 'an attribution whose headBias is not a finite number';
  return undefined;
}

/** Why a logit lens is not [layer][position] → at most ten { id, token, p in [0, 1] }, or undefined. */
export function logitLensProblem(lens: unknown): string | undefined {
  if (!Array.isArray(lens) || lens.length === 0 || lens.length > MAX_ROWS) return 'a logit lens that is not a list of layers';
  const positions = Array.isArray(lens[0]) ? lens[0].length : -1;
  for (const layer of lens as unknown[]) {
    if (!Array.isArray(layer) || layer.length !== positions || positions > MAX_POSITIONS) return 'a logit lens whose layers are not one list of positions each, all as long';
    for (const top of layer as unknown[]) {
      if (!Array.isArray(top) || top.length > 10 || !top.every(isToken)) return 'a logit lens position that is not at most ten { id, token, p in [0, 1] }';
    }
  }
  return undefined;
}

function isToken(t: unknown): boolean {
  return isObject(t) && Number.isInteger(t.id) && typeof t.token === 'string' && t.token.length <= MAX_TEXT && isNum(t.p) && t.p >= 0 && t.p <= 1;
}

/** Why a run's analyses (as RunAnalyses, without the logit lens) are malformed, or undefined. */
export function runAnalysesProblem(m: Record<string, unknown>): string | undefined {
  for (const key of ['target', 'contrast'] as const) {
    if (m[key] !== undefined && (typeof m[key] !== 'string' || (m[key] as string).length > MAX_TEXT)) return `a ${key} that is not a short text`;
  }
  if (m.patchFrom !== undefined && typeof m.patchFrom !== 'boolean') return 'patchFrom is not true or false';
  if (!isCount(m.positions, MAX_POSITIONS) || (m.positions as number) < 1) return 'positions is not a count of tokens';
  if (!isCount(m.shown, m.positions as number) || (m.shown as number) < 1) return 'shown is not a count of the run\'s tokens';
  if (m.attribution !== undefined) {
    const bad = attributionProblem(m.attribution);
    if (bad) return bad;
  }
  if (m.patching !== undefined && (!isTable(m.patching) || m.patching.length === 0)) return 'patching is not [layer][head] numbers';
  if (m.generated !== undefined) {
    const g = m.generated;
    if (!Array.isArray(g) || g.length > 256 || g.length >= (m.positions as number)) return 'generated is not a list of at most 256 tokens, fewer than the run\'s';
    if (!g.every((t) => isObject(t) && Number.isInteger(t.id) && typeof t.token === 'string' && t.token.length <= MAX_TEXT)) return 'a generated token that is not { id, token }';
    if ((m.shown as number) < (m.positions as number) - g.length) return 'shown is fewer than the text\'s own tokens';
  }
  return undefined;
}
