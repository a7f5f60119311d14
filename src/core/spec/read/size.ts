// What reading a spec will cost, from its text before it is parsed: every JSON value becomes a node
// of the tree the reader walks (about 350 bytes each: 8.4 million numbers in a 16 MB spec took 2.9 GB
// and 14 s to validate, 31 million aborted at 4.6 GB). The size cap (8 MB) alone keeps a spec under
// 4.2 million values, but --max-bytes may raise it; the count is the budget either way.
import type { Problem } from '../../json/problems.js';

/** JSON values one spec may hold: every spec within the default 8 MB (at most about 4.2 million) fits. */
export const MAX_JSON_VALUES = 4_500_000;

/**
 * The values in a JSON text, counted without parsing: one per value start outside strings (a
 * comma or colon separates one, a bracket opens one), plus the first. An upper bound good to a few.
 * Stops counting past `max`.
 */
export function countJsonValues(text: string, max = Infinity): number {
  let count = 1;
  let inString = false;
  for (let i = 0; i < text.length && count <= max; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2c || c === 0x5b || c === 0x7b) count++; // , [ {
  }
  return count;
}

/** The problem when the text holds more values than a spec may, before any is parsed; else undefined. */
export function valuesOverLimit(text: string): Problem | undefined {
  const count = countJsonValues(text, MAX_JSON_VALUES);
  if (count <= MAX_JSON_VALUES) return undefined;
  return {
    severity: 'error', path: '', span: { offset: 0, length: Math.min(1, text.length) },
    message: `the spec holds more than ${MAX_JSON_VALUES.toLocaleString('en-US')} JSON values, the most one spec may (each takes memory to read: 8.4 million took 2.9 GB): ` +
      'keep big matrices in a tensor file beside the spec ({ "file": "w.npy" }) or generate them ({ "init": "xavier", "shape": [...] })',
  };
}
