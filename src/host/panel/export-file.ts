// The pure half of Export SVG / PNG (no vscode): where the file goes and what may be written.
// The webview is untrusted, so both the name and the bytes are checked here: the file can only be
// <stem>.<view>.svg|png in the spec's own folder, and only an SVG or a real PNG is written.
import { SPEC_SUFFIX } from '../spec-documents.js';

export type ExportFormat = 'svg' | 'png';

const PNG_PREFIX = 'data:image/png;base64,';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_VIEW_NAME = 40;

/** A view name reduced to [A-Za-z0-9_-] (at most 40 characters), or "view" when nothing is left. */
export function safeViewName(view: string): string {
  return view.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_VIEW_NAME) || 'view';
}

/** The spec's file name without ".attn.json" (any case): "apple-watch-lens"; "spec" if that leaves nothing. */
export function specStemOfPath(specPath: string): string {
  const base = specPath.slice(specPath.lastIndexOf('/') + 1);
  const stem = base.toLowerCase().endsWith(SPEC_SUFFIX) ? base.slice(0, -SPEC_SUFFIX.length) : base;
  return stem || 'spec';
}

/** The export's file name: "<stem>.<view>.<format>", with no folder in it. */
export function exportFileName(specPath: string, view: string, format: ExportFormat): string {
  return `${specStemOfPath(specPath)}.${safeViewName(view)}.${format}`;
}

/** The export's path (a URI path, '/'-separated) in the spec's own folder. */
export function exportPath(specPath: string, view: string, format: ExportFormat): string {
  return specPath.slice(0, specPath.lastIndexOf('/') + 1) + exportFileName(specPath, view, format);
}

/** Leading XML declaration, comments, doctype and whitespace, which may come before <svg. */
const SVG_PROLOG = /^(?:\uFEFF)?(?:\s+|<\?xml[^>]*\?>|<!--[^]*?-->|<!DOCTYPE[^>[]*(?:\[[^\]]*\])?\s*>)*/i;

/** The file's bytes, or an error message when the webview sent something that is not that format. */
export function exportBytes(format: ExportFormat, data: string): Uint8Array | string {
  if (format === 'svg') {
    const body = data.slice(SVG_PROLOG.exec(data)?.[0].length ?? 0);
    if (!/^<svg[\s>]/.test(body) || !/<\/svg>\s*$/.test(body)) return 'the panel did not send an SVG';
    return new TextEncoder().encode(data);
  }
  if (!data.startsWith(PNG_PREFIX)) return 'the panel did not send a PNG data URL';
  const bytes = base64Bytes(data.slice(PNG_PREFIX.length));
  return bytes && PNG_SIGNATURE.every((b, i) => bytes[i] === b) ? bytes : 'the panel sent data that is not a PNG';
}

/** The bytes of base64 text, or undefined when it is not base64 (atob: no Buffer in the web extension host). */
function base64Bytes(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The message after a successful export; says so when an existing file was replaced. */
export function exportedMessage(shown: string, replaced: boolean): string {
  return replaced
    ? `Attention Lens: exported ${shown} (replaced the file that was there)`
    : `Attention Lens: exported ${shown}`;
}
