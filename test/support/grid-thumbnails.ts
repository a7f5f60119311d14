// The model grid's thumbnails as a test reads them: each head cell's viewport (svg.thumbnail) shows
// its part of its layer's picture, an <image> defined once in the same SVG (webview/views/model/
// thumbnails.ts). gridThumbnails finds, for every painted cell, the picture its <use> points at;
// decodePalettePng reads that picture's colour indices back (our PNGs: 8-bit palette, filter 0).
import { inflateSync } from 'node:zlib';

export interface CellThumbnail {
  layer: number;
  head: number;
  /** The data: URL of the layer's picture the cell's <use> points at (in the cell's own SVG). */
  href: string;
  /** The viewport onto it: [x, y, width, height] in the picture's pixels. */
  viewBox: number[];
}

/** Every head cell whose <use> points at an <image> of its own SVG (a cell pointing nowhere is left out). */
export function gridThumbnails(root: ParentNode): CellThumbnail[] {
  const out: CellThumbnail[] = [];
  for (const cell of root.querySelectorAll('g.head-cell')) {
    const view = cell.querySelector('svg.thumbnail');
    const ref = view?.querySelector('use')?.getAttribute('href');
    const svg = cell.closest('svg');
    if (!view || !ref?.startsWith('#') || !svg) continue;
    const image = svg.querySelector(`defs image[id="${ref.slice(1)}"]`);
    const href = image?.getAttribute('href');
    if (!href) continue;
    out.push({
      layer: Number(cell.getAttribute('data-layer')), head: Number(cell.getAttribute('data-head')), href,
      viewBox: (view.getAttribute('viewBox') ?? '').split(/\s+/).map(Number),
    });
  }
  return out;
}

/** The colour indices of one of our palette PNGs (a data: URL), row by row. */
export function decodePalettePng(href: string): { width: number; height: number; indices: Uint8Array } {
  const png = Buffer.from(href.replace(/^data:image\/png;base64,/, ''), 'base64');
  const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
  const idatAt = png.indexOf('IDAT');
  const raw = inflateSync(png.subarray(idatAt + 4, idatAt + 4 + png.readUInt32BE(idatAt - 4)));
  const indices = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    if (raw[y * (width + 1)] !== 0) throw new Error(`row ${y}: filter ${raw[y * (width + 1)]}, not 0`);
    indices.set(raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1)), y * width);
  }
  return { width, height, indices };
}

/** The part of a decoded picture a viewport shows (whole pixels). */
export function viewed(picture: { width: number; indices: Uint8Array }, [x, y, w, h]: number[]): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let r = 0; r < h; r++) out.set(picture.indices.subarray((y + r) * picture.width + x, (y + r) * picture.width + x + w), r * w);
  return out;
}
