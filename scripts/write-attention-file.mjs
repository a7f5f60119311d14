// A model attention file for the benches (bench:tensors, bench:vscode): a .safetensors of
// [layers, heads, n, n] softmax rows of a fixed pseudo-random sequence, F32 or F16, tokens in its
// metadata, written head by head (memory: one head).
import { Buffer } from 'node:buffer';
import { closeSync, openSync, writeSync } from 'node:fs';

/** float64 → binary16 bits for weights in [0, 1], rounding to nearest (ties up: good enough for a bench file). */
function toHalf(v) {
  const f = new Float32Array([v]), u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, frac = u & 0x7fffff;
  if (exp <= 0) return sign | Math.round((frac | 0x800000) / 2 ** (14 - exp)); // subnormal (weights never overflow)
  return sign | ((exp << 10) + Math.round(frac / 8192)); // a carry out of the fraction bumps the exponent, as it should
}



/** Writes the file; `dtype` is 'F32' or 'F16'. */
export function writeAttentionFile(path, L, H, n, dtype) {
  const item = dtype === 'F32' ? 4 : 2;
  const size = L * H * n * n * item;
  const tokens = Array.from({ length: n }, (_, i) => `t${i % 97}`);
  let text = JSON.stringify({ attentions: { dtype, shape: [L, H, n, n], data_offsets: [0, size] }, __metadata__: { tokens: JSON.stringify(tokens) } });
  text += ' '.repeat((8 - (Buffer.byteLength(text) % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(text)));
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  writeSync(fd, text);
  // One head of softmax rows, computed once; head h is it with its rows rolled by h (every row still
  // sums to 1, the heads differ, and a 1 GiB file is written in seconds, not the many minutes that
  // 537 million exps took).
  let s = 12345;
  const row = new Float64Array(n);
  const bytes = Buffer.alloc(n * n * item);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      row[j] = Math.exp(4 * (s / 2147483648));
      sum += row[j];
    }
    for (let j = 0; j < n; j++) {
      const w = row[j] / sum, at = (i * n + j) * item;
      if (dtype === 'F32') bytes.writeFloatLE(w, at); else bytes.writeUInt16LE(toHalf(w), at);
    }
  }
  const rowBytes = n * item;
  for (let h = 0; h < L * H; h++) {
    const cut = (h % n) * rowBytes;
    writeSync(fd, bytes.subarray(cut));
    if (cut > 0) writeSync(fd, bytes.subarray(0, cut));
  }
  closeSync(fd);
}
