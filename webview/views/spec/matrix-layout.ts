// The matrix view's geometry: one head's block (labels, cells, title) and how the heads share
// the width, side by side or as small multiples.
import { maxOf } from '../../../src/core/linalg/extent.js';
import { textWidth } from '../../kit/format.js';

/** Height of a head's name and shape above its matrix. */
export const HEAD_TITLE_H = 32;

export interface Block {
  /** Cell size in pixels. */
  cell: number;
  /** Tokens per drawn cell (1 unless a static render of a large input). */
  stride: number;
  labelW: number;
  labelH: number;
  width: number;
  height: number;
}

export function layoutBlock(tokens: readonly string[], n: number, cell: number, stride: number, fontSize: number): Block {
  const m = Math.ceil(n / stride);
  const showLabels = cell >= 7;
  const longest = showLabels ? Math.min(110, Math.max(maxOf(tokens, (t) => textWidth(t, fontSize)), 10)) : 0;
  const labelW = showLabels ? longest + 8 : 28;
  const labelH = showLabels ? (cell >= textWidth('wwwwww', fontSize) ? fontSize + 8 : longest * 0.72 + 12) : 18;
  return { cell, stride, labelW, labelH, width: labelW + m * cell, height: labelH + m * cell + HEAD_TITLE_H + 4 };
}
