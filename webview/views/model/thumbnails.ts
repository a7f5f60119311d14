// The grid's thumbnails as one picture per layer: the layer's heads side by side (heads · thumb ×
// thumb palette indices, each head scaled to its own strongest weight), defined once in the SVG and
// shown in each head's cell through a viewport onto its part. One picture a head made a 12 × 12 page
// 144 images, each its own fetch and decode in the browser (about 0.4 ms each, the largest part of
// the first paint after our script); a picture a layer makes it 12, with every pixel the same.
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { maxOf } from '../../../src/core/model-attention/data.js';
import { heatmapIndices } from '../../../src/core/tensors/heatmap.js';
import { base64, encodePalettePng, type Deflate } from '../../../src/core/image/png.js';
import type { Theme } from '../../kit/colour.js';
import { palette } from './common.js';

/** Layer `layer`'s thumbnails side by side: row y of head h at [y · heads · thumb + h · thumb, + thumb). */
export function layerIndices(data: ModelViewData, layer: number): Uint8Array {
  const { heads, thumb } = data.header;
  const side = thumb * thumb, width = heads * thumb;
  const out = new Uint8Array(width * thumb);
  for (let head = 0; head < heads; head++) {
    const offset = (layer * heads + head) * side;
    if (data.thumbIndices) {
      if (offset + side > data.thumbIndices.length) continue;
      for (let y = 0; y < thumb; y++) out.set(data.thumbIndices.subarray(offset + y * thumb, offset + (y + 1) * thumb), y * width + head * thumb);
    } else {
      if (offset + side > data.thumbnails.length) continue;
      heatmapIndices(data.thumbnails, offset, thumb, thumb, thumb, maxOf(data.thumbnails, offset, offset + side), out, head * thumb, width);
    }
  }
  return out;
}

/**
 * Layer `layer`'s picture: a data: URL of its palette PNG, and an id made from the PNG's bytes (two
 * grids on one page, a notebook's outputs, never point at each other's pictures unless they are the
 * same picture, and the same grid drawn twice writes the same SVG).
 */
export function layerPicture(data: ModelViewData, layer: number, theme: Theme, deflate?: Deflate): { id: string; href: string } {
  const { heads, thumb } = data.header;
  const png = encodePalettePng(heads * thumb, thumb, layerIndices(data, layer), palette(theme), deflate);
  // The PNG's own checks name it: its last chunk but one is the IDAT (the pixels), whose CRC ends 12
  // bytes from the end; the PLTE's (the colours) ends where the IDAT starts; the IHDR's (its width and
  // height: the same pixel bytes are another picture at another size) is at 29. No second pass over it.
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const pixels = view.getUint32(png.length - 16), colours = view.getUint32(33 + 8 + view.getUint32(33)), size = view.getUint32(29);
  const hex = (x: number) => x.toString(16).padStart(8, '0');
  return { id: `al-thumbnails-${layer}-${hex(pixels)}-${hex(colours)}-${hex(size)}-${png.length.toString(16)}`, href: `data:image/png;base64,${base64(png)}` };
}
