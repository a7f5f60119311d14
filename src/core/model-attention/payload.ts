// A model's attention carried inline, as a notebook output carries it (the Python package
// attention_lens writes it; python/attention_lens/payload.py): the MIME type, the payload's shape, and
// its one decoding, base64 of little-endian float32 or float16 values → an AttentionSource held in
// memory, which the model views' readers (scan.ts) take as they take a file. Pure: the notebook
// renderer, the offline page and the host all decode here. The payload is checked (shapes, lengths,
// finite values) by src/protocol/attention-payload.ts before it is used.
import { attentionFromTensors } from '../tensors/attention-file.js';
import type { AttentionSource } from '../tensors/attention-source.js';
import { memorySource } from '../tensors/source.js';
import { fromBase64 } from '../image/png.js';

/** The MIME type of a notebook output drawn by Attention Lens. */
export const ATTENTION_MIME = 'application/vnd.attention-lens.v1+json';

export type PayloadDType = 'float32' | 'float16';

export interface AttentionPayload {
  tokens: string[];
  /** [layers, heads, n, n]. */
  shape: [number, number, number, number];
  dtype: PayloadDType;
  /** Base64 of the little-endian values, C order. */
  data: string;
  title?: string;
}

export const PAYLOAD_ITEM_SIZE: Record<PayloadDType, number> = { float32: 4, float16: 2 };

/** The file's dtype in the readers' names. */
const READER_DTYPE = { float32: 'F32', float16: 'F16' } as const;

/** Bytes a base64 text of `length` characters (a multiple of 4, with its padding) decodes to. */
export function base64Bytes(text: string): number {
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - pad;
}

/** The values' bytes, decoded (the caller checked the text is base64 of the right length). */
export function payloadBytes(payload: Pick<AttentionPayload, 'data'>): Uint8Array {
  return fromBase64(payload.data);
}

/**
 * The place of the first weight that is not finite (NaN or ±Infinity), as [layer, head, query, key]
 * with its value, or undefined. F16 by its exponent bits (all set: not finite); F32 by value.
 */
export function firstNonFinite(bytes: Uint8Array, payload: Pick<AttentionPayload, 'shape' | 'dtype'>): { at: [number, number, number, number]; value: number } | undefined {
  const [, heads, n] = payload.shape;
  const place = (k: number): [number, number, number, number] => {
    const per = n * n, head = Math.floor(k / per), within = k % per;
    return [Math.floor(head / heads), head % heads, Math.floor(within / n), within % n];
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (payload.dtype === 'float16') {
    for (let k = 0, b = 0; b < bytes.length; k++, b += 2) {
      const code = view.getUint16(b, true);
      if ((code & 0x7c00) === 0x7c00) return { at: place(k), value: (code & 0x3ff) !== 0 ? NaN : code & 0x8000 ? -Infinity : Infinity };
    }
    return undefined;
  }
  for (let k = 0, b = 0; b < bytes.length; k++, b += 4) {
    const v = view.getFloat32(b, true);
    if (!Number.isFinite(v)) return { at: place(k), value: v };
  }
  return undefined;
}

/** The payload's attention as the readers take a file: one tensor [layers, heads, n, n] in memory. */
export function payloadAttention(payload: Pick<AttentionPayload, 'tokens' | 'shape' | 'dtype' | 'title'>, bytes: Uint8Array, name = payload.title ?? 'notebook output'): AttentionSource {
  const source = memorySource(name, bytes);
  return attentionFromTensors(name, [{ name: 'attention', dtype: READER_DTYPE[payload.dtype], shape: [...payload.shape], source, offset: 0 }], payload.tokens, () => {});
}
