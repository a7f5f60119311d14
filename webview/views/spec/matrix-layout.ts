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
  /** How the column labels stand: across (0), at 45° or upright (-90, when 45° ones would touch). */
  colTurn: 0 | -45 | -90;
  /** The room a label needs across its neighbours (a line of text): closer labels are thinned. */
  labelRoom: number;
  width: number;
  height: number;
}

export function layoutBlock(tokens: readonly string[], n: number, cell: number, stride: number, fontSize: number): Block {
  const m = Math.ceil(n / stride);
  const showLabels = cell >= 7;
  const longest = showLabels ? Math.min(110, Math.max(maxOf(tokens, (t) => textWidth(t, fontSize)), 10)) : 0;
  const labelW = showLabels ? longest + 8 : 28;
  // Labels at 45° are cell · sin 45° apart across their lines; closer than a line of text they
  // overlapped (init-four-rules at 430 px), so they stand upright, one cell apart.
  const labelRoom = fontSize * 1.4;
  const colTurn = cell >= textWidth('wwwwww', fontSize) ? 0 : cell * Math.SQRT1_2 >= labelRoom ? -45 : -90;
  const labelH = !showLabels ? 18 : colTurn === 0 ? fontSize + 8 : colTurn === -45 ? longest * 0.72 + 12 : longest + 12;
  return { cell, stride, labelW, labelH, colTurn, labelRoom, width: labelW + m * cell, height: labelH + m * cell + HEAD_TITLE_H + 4 };
}
