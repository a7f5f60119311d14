// A head's weights as colour indices: the pictures the pass keeps, the thumbnails the editor posts and
// the PNGs the CLI writes all quantise the same way, 0 for no weight up to 255 for the picture's maximum.

/** Colour indices 0 … 255 of `values` (w × h at offset, rows `stride` apart) scaled to `max`, into `out`. */
export function heatmapIndices(values: ArrayLike<number>, offset: number, stride: number, w: number, h: number, max: number, out = new Uint8Array(w * h), outOffset = 0, outStride = w): Uint8Array {
  const scale = max > 0 && Number.isFinite(max) ? 255 / max : 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = values[offset + y * stride + x] * scale;
      out[outOffset + y * outStride + x] = v > 0 ? (v >= 255 ? 255 : Math.round(v)) : 0;
    }
  }
  return out;
}
