// Export from a shell: the shown view as a standalone SVG, or a PNG drawn from it, as text to hand
// to the host (an SVG file's text, a PNG's data: URL); and, where there is no host (the --html
// page), the browser's download of it.
import { standaloneSvg, svgToPng } from '../kit/export.js';
import type { ViewHandle } from '../kit/view.js';
import type { ExportFormat } from '../../src/core/vocabulary.js';

/** The picture of `handle` in `format`: the SVG's text, or a PNG's data: URL. */
export async function pictureOf(handle: ViewHandle, doc: Document, format: ExportFormat): Promise<string> {
  const { text, width, height } = standaloneSvg(handle, doc);
  return format === 'svg' ? text : svgToPng(text, width, height, doc);
}

/** Lets the browser save `data` (what pictureOf made) as `fileName`. */
export function download(doc: Document, fileName: string, format: ExportFormat, data: string): void {
  const link = doc.createElement('a');
  link.download = fileName;
  link.href = format === 'svg' ? URL.createObjectURL(new Blob([data], { type: 'image/svg+xml' })) : data;
  link.click();
}
