// Numbers a spec accepts can still multiply past what a double holds (1e200 · 1e200), or a tiny
// scale can blow scores up. The reader cannot see that coming, so the result is checked after
// the compute and the first non-finite number becomes a problem instead of NaN in a picture.
import type { AttentionResult, HeadResult } from './attention.js';
import type { Matrix } from '../linalg/matrix.js';

export interface Overflow {
  input: number;
  /** undefined when the overflow is in the output projection W_O. */
  head?: number;
  /** Which intermediate: 'q', 'k', 'v', 'scores', 'scaled', 'weights', 'output', 'W_O output' or '‖v W_O‖' (row: the key). */
  what: string;
  /** The query token's row. */
  row: number;
  value: number;
}

/** Index of the first non-finite entry, skipping entries the mask hid (they hold -Infinity on purpose). */
function firstNonFinite(m: Matrix, masked?: Uint8Array): number {
  const d = m.data;
  for (let i = 0; i < d.length; i++) if (!Number.isFinite(d[i]) && !(masked && masked[i])) return i;
  return -1;
}

function headOverflow(h: HeadResult): { what: string; index: number; m: Matrix } | undefined {
  const parts: [string, Matrix, Uint8Array?][] = [
    ['q', h.q], ['k', h.k], ['v', h.v], ['scores', h.scores], ['scaled', h.scaled, h.masked], ['weights', h.weights], ['output', h.output],
  ];
  for (const [what, m, masked] of parts) {
    const index = firstNonFinite(m, masked);
    if (index >= 0) return { what, index, m };
  }
  return undefined;
}

export function findOverflow(result: AttentionResult): Overflow | undefined {
  for (let input = 0; input < result.inputs.length; input++) {
    const r = result.inputs[input];
    for (let head = 0; head < r.heads.length; head++) {
      const found = headOverflow(r.heads[head]);
      if (found) return { input, head, what: found.what, row: Math.floor(found.index / found.m.cols), value: found.m.data[found.index] };
    }
    const index = firstNonFinite(r.output);
    if (index >= 0) return { input, what: 'W_O output', row: Math.floor(index / r.output.cols), value: r.output.data[index] };
    // A value through its head's rows of W_O can pass the doubles where the output (weighted by α ≤ 1) does not.
    for (let head = 0; head < r.heads.length; head++) {
      const norms = r.heads[head].valueNorms;
      const key = norms ? firstNonFinite(norms) : -1;
      if (norms && key >= 0) return { input, head, what: '‖v W_O‖', row: key, value: norms.data[key] };
    }
  }
  return undefined;
}
