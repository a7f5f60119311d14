// RoPE on a fraction of each head (GPT-NeoX's rotary_pct, Phi-3's partial_rotary_factor): Hugging
// Face rotates the first int(head_dim · fraction) dims of every head, rotate-half within them, with
// frequencies 1 / θ^(2i / dims), and leaves the rest as projected. A fraction that leaves no pair to
// rotate, asks for more dims than the head has, or gives an odd count (whose halves Hugging Face's
// cos/sin tables do not match) is refused naming the key.
import { shown } from '../../../json/shown.js';
import { ModelError } from '../../error.js';

/** The rotated dims of each head of headDim for `fraction`, read from config.json's `key`. */
export function rotaryDims(file: string, key: string, fraction: unknown, headDim: number): number {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction) || !(fraction > 0) || fraction > 1) {
    throw new ModelError(`${file}: "${key}" must be a number above 0 and at most 1 (the share of each head RoPE rotates), got ${shown(fraction)}`);
  }
  // Python's int() of a positive float: its whole part.
  const dims = Math.floor(headDim * fraction);
  if (dims < 2 || dims % 2 !== 0) {
    throw new ModelError(`${file}: "${key}" ${fraction} rotates ${dims} of the head's ${headDim} dims; RoPE needs an even number of them, at least 2`);
  }
  return dims;
}
