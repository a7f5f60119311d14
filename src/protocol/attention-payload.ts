// The check of an inline attention payload (src/core/model-attention/payload.ts), wherever one arrives: a
// notebook output in the renderer, the offline page's embedded data, the renderer's "Open in
// Attention Lens" message to the host. It is untrusted until checked: the shape (four whole numbers,
// square heads, within what the readers open), the dtype, one token per query, the base64 text and
// its length against the shape, then every value finite. The answer is the decoded attention, or
// one sentence saying what is wrong (shown in the cell as it is).
import { isObject } from '../core/json/object.js';
import { MAX_HEADS } from '../core/tensors/attention-file.js';
import type { AttentionSource } from '../core/tensors/attention-source.js';
import { base64Bytes, firstNonFinite, PAYLOAD_ITEM_SIZE, payloadAttention, payloadBytes, type AttentionPayload } from '../core/model-attention/payload.js';
import { TensorFileError } from '../core/tensors/source.js';

/** The most bytes of values a payload may carry (the Python side sends at most 32 MiB, or one 4,096-token head: 64 MiB). */
export const MAX_PAYLOAD_BYTES = 128 * 1024 * 1024;
/** The longest title kept (a longer one is refused, not cut). */
export const MAX_TITLE_CHARS = 1000;

/** Most tokens of a payload: its values travel in the notebook's JSON (files open to 32,768 tokens; a payload to one 4,096-token head). */
export const MAX_TOKENS = 4096;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 1;

/** What is wrong with the payload's fields, before its data is decoded; undefined when nothing. */
export function payloadProblem(p: unknown): string | undefined {
  if (!isObject(p)) return 'the output is not an Attention Lens payload (a JSON object)';
  const { shape, dtype, tokens, data, title } = p;
  if (!Array.isArray(shape) || shape.length !== 4 || !shape.every(isCount)) return 'its "shape" is not [layers, heads, n, n] in whole numbers ≥ 1';
  const [layers, heads, n, m] = shape as number[];
  if (n !== m) return `its heads are ${n} × ${m}, not square (queries × keys)`;
  if (n > MAX_TOKENS) return `${n} tokens, more than the ${MAX_TOKENS} Attention Lens opens`;
  if (layers * heads > MAX_HEADS) return `${layers} layers × ${heads} heads, more than the ${MAX_HEADS} heads Attention Lens opens`;
  if (dtype !== 'float32' && dtype !== 'float16') return `its "dtype" is ${JSON.stringify(dtype)?.slice(0, 40)}, not "float32" or "float16"`;
  if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) return 'its "tokens" are not a list of strings';
  if (tokens.length !== n) return `${tokens.length} token(s) for ${n} × ${n} attention`;
  if (title !== undefined && (typeof title !== 'string' || title.length > MAX_TITLE_CHARS)) return `its "title" is not text of at most ${MAX_TITLE_CHARS} characters`;
  const bytes = layers * heads * n * n * PAYLOAD_ITEM_SIZE[dtype];
  if (bytes > MAX_PAYLOAD_BYTES) return `${bytes} bytes of values, more than the ${MAX_PAYLOAD_BYTES} a payload may carry`;
  if (typeof data !== 'string' || data.length % 4 !== 0 || !BASE64.test(data)) return 'its "data" is not base64 text';
  const got = base64Bytes(data);
  if (got !== bytes) return `its data holds ${got} bytes, but [${shape.join(', ')}] of ${dtype} needs ${bytes}`;
  return undefined;
}

export type CheckedPayload = { payload: AttentionPayload; attention: AttentionSource; bytes: Uint8Array } | { problem: string };

/** The payload checked whole (fields, length, finite values) and decoded; or why not, in one sentence. */
export function readPayload(p: unknown): CheckedPayload {
  const problem = payloadProblem(p);
  if (problem) return { problem };
  const payload = p as unknown as AttentionPayload;
  const bytes = payloadBytes(payload);
  const bad = firstNonFinite(bytes, payload);
  if (bad) {
    const [l, h, i, j] = bad.at;
    return { problem: `the weight of query ${i} on key ${j} in layer ${l} head ${h} is ${bad.value}: attention must be finite` };
  }
  try {
    return { payload, attention: payloadAttention(payload, bytes), bytes };
  } catch (e) {
    if (e instanceof TensorFileError) return { problem: e.message };
    throw e;
  }
}
