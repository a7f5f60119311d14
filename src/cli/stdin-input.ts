// Standard input for attn render, read once and told apart: a model's attention file (safetensors,
// .npy, .npz, by its first bytes) or a spec's text. It has no name to go by, so `attn render -`
// looks at what was read before it says which views apply.
import { readBudget } from './read-file.js';
import { attentionFormat } from '../core/tensors/attention-file.js';
import { sizeLimitMessage } from '../core/json/json-tree.js';
import { MAX_STDIN_MODEL_BYTES } from './inspect.js';

export type StdinRead =
  | { kind: 'model'; format: 'npy' | 'npz' | 'safetensors'; bytes: Uint8Array }
  | { kind: 'spec'; text: string }
  | { error: string };

/** Names that mean standard input. */
export const isStdin = (file: string) => file === '-' || file === '/dev/stdin';

/** Reads standard input (`fd`, 0) within the model budget; a spec within `maxSpecBytes`, valid UTF-8. */
export function readStdin(maxSpecBytes: number, fd = 0): StdinRead {
  const bytes = readBudget(fd, MAX_STDIN_MODEL_BYTES);
  const format = attentionFormat(bytes.subarray(0, 16));
  if (format) {
    if (bytes.length > MAX_STDIN_MODEL_BYTES) return { error: `standard input: more than ${MAX_STDIN_MODEL_BYTES} bytes; give the file's name instead (a file is read at offsets, not whole)` };
    return { kind: 'model', format, bytes };
  }
  if (bytes.length > maxSpecBytes) return { error: `standard input: 1:1: ${sizeLimitMessage(undefined, maxSpecBytes)}` };
  try {
    return { kind: 'spec', text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { error: 'standard input is neither a model\'s attention file (.safetensors, .npy, .npz) nor a spec\'s UTF-8 text' };
  }
}
