// Which keys each layer's queries see in Qwen2 and Qwen3, as their Hugging Face configs read it: the
// window W is sliding_window (4096 when absent, none when null) only if use_sliding_window is true;
// layer_types, where the config gives it, names each layer "full_attention" or "sliding_attention";
// otherwise a layer slides when there is a window and its index is max_window_layers (28 when
// absent) or more. A sliding layer's query i sees keys i − W < j ≤ i (masking_utils' sliding mask),
// a full one keys j ≤ i.
import type { Obj } from '../../../json/object.js';
import { shown } from '../../../json/shown.js';
import { ModelError } from '../../error.js';
import { count, flag, refuse, size } from './config-keys.js';
import type { AttentionKind } from './family.js';

/** Hugging Face's Qwen2Config and Qwen3Config defaults. */
const DEFAULT_WINDOW = 4096;
const DEFAULT_WINDOW_LAYERS = 28;

export function qwenAttention(json: Obj, file: string, layers: number): AttentionKind[] {
  const window = flag(json, file, 'use_sliding_window', false) && json.sliding_window !== null ? size(json, file, ['sliding_window'], DEFAULT_WINDOW) : undefined;
  const sliding: AttentionKind = window === undefined ? { kind: 'causal' } : { kind: 'sliding', window };
  const types = json.layer_types;
  if (types !== undefined && types !== null) {
    if (!Array.isArray(types) || types.length !== layers) {
      throw new ModelError(`${file}: "layer_types" must list one of "full_attention" or "sliding_attention" for each of the ${layers} layers, got ${shown(types)}`);
    }
    return types.map((t, i) => {
      if (t === 'full_attention') return { kind: 'causal' };
      if (t !== 'sliding_attention') refuse(file, 'layer_types', t, `layer ${i}: attn computes "full_attention" and "sliding_attention"`);
      // Hugging Face cannot build a sliding mask without a window either.
      if (window === undefined) refuse(file, 'layer_types', t, `layer ${i} slides, but there is no window ("use_sliding_window" true and a "sliding_window")`);
      return sliding;
    });
  }
  const from = window === undefined ? layers : count(json, file, 'max_window_layers', DEFAULT_WINDOW_LAYERS);
  return Array.from({ length: layers }, (_, i) => (i >= from ? sliding : { kind: 'causal' }));
}
