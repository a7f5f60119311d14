// Export: the current view as a standalone SVG (colours and fonts are already attributes; a
// canvas-painted matrix goes in as an <image>), or as a PNG drawn from that SVG onto a canvas.
import type { ViewHandle } from './view.js';
import { xmlSafe } from './xml-safe.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

export function standaloneSvg(handle: ViewHandle, doc: Document): { text: string; width: number; height: number } {
  const clone = handle.svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', SVG_NS);
  clone.querySelectorAll('.highlight > *').forEach((el) => el.remove());
  clone.querySelectorAll('[tabindex]').forEach((el) => el.removeAttribute('tabindex'));
  clone.querySelectorAll('[visibility]').forEach((el) => el.removeAttribute('visibility'));
  clone.removeAttribute('pointer-events');
  clone.querySelector('rect.bg')?.removeAttribute('fill-opacity');
  handle.paintAll?.(); // every canvas painted, those below the first screen too
  for (const c of handle.canvases ?? []) {
    const img = doc.createElementNS(SVG_NS, 'image');
    img.setAttribute('x', c.dataset.x ?? '0');
    img.setAttribute('y', c.dataset.y ?? '0');
    img.setAttribute('width', c.style.width.replace('px', ''));
    img.setAttribute('height', c.style.height.replace('px', ''));
    img.setAttribute('href', c.toDataURL('image/png'));
    const bg = clone.querySelector('rect.bg');
    if (bg?.nextSibling) clone.insertBefore(img, bg.nextSibling);
    else clone.appendChild(img);
  }
  const width = Number(clone.getAttribute('width')) || 800;
  const height = Number(clone.getAttribute('height')) || 600;
  const text = xmlSafe(new (doc.defaultView as Window & typeof globalThis).XMLSerializer().serializeToString(clone));
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`, width, height };
}

/** Draws the SVG on a canvas at `scale`× and returns a PNG data: URL. */
export function svgToPng(svgText: string, width: number, height: number, doc: Document, scale = 2): Promise<string> {
  return new Promise((resolve, reject) => {
    const win = doc.defaultView as Window & typeof globalThis;
    const img = new win.Image();
    img.onload = () => {
      const canvas = doc.createElement('canvas');
      canvas.width = Math.ceil(width * scale);
      canvas.height = Math.ceil(height * scale);
      const ctx = canvas.getContext('2d');
      if (!ctx) { reject(new Error('no 2d canvas')); return; }
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      try { resolve(canvas.toDataURL('image/png')); } catch (err) { reject(err instanceof Error ? err : new Error(String(err))); }
    };
    img.onerror = () => reject(new Error('the SVG could not be drawn as an image'));
    const bytes = new win.TextEncoder().encode(svgText);
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    img.src = `data:image/svg+xml;base64,${win.btoa(bin)}`;
  });
}
