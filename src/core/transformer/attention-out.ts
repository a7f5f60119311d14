// A run's attention as the safetensors file `attn inspect` and the model editor read: one F32 tensor
// "attention" of shape [layers, heads, n, n] with the tokens as a JSON list in __metadata__.tokens.
// Pure: the header's bytes and the layers' bytes in order, for the caller to write (a 1,024-token
// GPT-2 small run is 600 MB, so nothing joins them into one buffer).

/** The file's parts in order: the 8-byte size, the header (padded to 8 bytes), then each layer's data. */
export function attentionSafetensors(attention: readonly Float32Array[], heads: number, n: number, tokens: readonly string[]): Uint8Array[] {
  const bytes = attention.length * heads * n * n * 4;
  const header = {
    __metadata__: { tokens: JSON.stringify(tokens) },
    attention: { dtype: 'F32', shape: [attention.length, heads, n, n], data_offsets: [0, bytes] },
  };
  let text = new TextEncoder().encode(JSON.stringify(header));
  if (text.length % 8 !== 0) {
    const padded = new Uint8Array(text.length + 8 - (text.length % 8)).fill(0x20);
    padded.set(text);
    text = padded;
  }
  const size = new Uint8Array(8);
  new DataView(size.buffer).setBigUint64(0, BigInt(text.length), true);
  return [size, text, ...attention.map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength))];
}
