// Standard input for attn render, read once and told apart: a model's attention file (safetensors,
// .npy, .npz, by its first bytes) or a spec's text. It has no name to go by, so `attn render -`
// looks at its first bytes, then reads on only as far as the budget of what it found: 256 MB for
// a model's attention, the spec limit for a spec, whose bytes then get the words a spec file gets
// (UTF-16, NUL bytes, invalid UTF-8, each at its place).
import { decodeBytes, readBudget } from './read-file.js';
import { attentionFormat } from '../core/tensors/attention-file.js';
import { sizeLimitMessage } from '../core/json/json-tree.js';
import { MAX_STDIN_MODEL_BYTES } from './inspect.js';

export { isStdin } from './read-file.js';

/** The first bytes, enough for attentionFormat to tell safetensors (9), .npy (6) and .npz (4) apart. */
const HEAD_BYTES = 16;

export type StdinRead =
  | { kind: 'model'; format: 'npy' | 'npz' | 'safetensors'; bytes: Uint8Array }
  | { kind: 'spec'; text: string }
  | { error: string };

/** Reads standard input (`fd`, 0): within the model budget when it starts as one, else within `maxSpecBytes` as a spec. */
export function readStdin(maxSpecBytes: number, fd = 0): StdinRead {
  // readBudget(fd, n) reads n + 1 bytes unless the input ends first: the whole head the formats are told by.
  const head = readBudget(fd, HEAD_BYTES - 1);
  const format = attentionFormat(head);
  const budget = format ? MAX_STDIN_MODEL_BYTES : maxSpecBytes;
  const bytes = head.length < HEAD_BYTES || head.length > budget ? head : Buffer.concat([head, readBudget(fd, budget - head.length)]);
  if (format) {
    if (bytes.length > MAX_STDIN_MODEL_BYTES) return { error: `standard input: more than ${MAX_STDIN_MODEL_BYTES} bytes; give the file's name instead (a file is read at offsets, not whole)` };
    return { kind: 'model', format, bytes };
  }
  if (bytes.length > maxSpecBytes) return { error: `standard input: 1:1: ${sizeLimitMessage(undefined, maxSpecBytes)}` };
  const decoded = decodeBytes(bytes);
  if ('error' in decoded) return { error: `standard input: ${decoded.error}` };
  return { kind: 'spec', text: decoded.text };
}
