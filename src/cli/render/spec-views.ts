// `attn render`: the webviews' own view code, looked up in the one view registry, run on jsdom and
// serialised as a standalone SVG file (drawSvg, for the spec views here and the model views in
// render-model.ts). Colours, fonts and sizes are attributes on the elements (the views never use
// CSS variables), hover text goes into <title> elements, and every string is escaped by the serializer.
import { JSDOM } from 'jsdom';
import type { AttentionData } from '../../core/result/attention-data.js';
import { makeTheme } from '../../../webview/kit/colour.js';
import type { ThemeKind } from '../../core/vocabulary.js';
import { specEntry } from '../../../webview/views/registry.js';
import { resolveSelection, type AnyViewName } from '../../../webview/views/spec/selection.js';
import type { MatrixMode, Role, ViewHandle } from '../../../webview/kit/view.js';
import { xmlSafe } from '../../../webview/kit/xml-safe.js';
import { compareOverBudget } from '../../core/result/view-budget.js';

export interface RenderOptions {
  input?: number;
  /** A head index, or 'all'. Default: 'all' for arcs and matrix, else the first head. */
  head?: number | 'all';
  /** A token index; -1 or missing picks a sensible one (the last token; for compare, a shared word). */
  token?: number;
  width?: number;
  theme?: ThemeKind;
  matrixMode?: MatrixMode;
  projection?: Role;
}

/**
 * Why `view` of `json` is not drawn, from its shapes, before jsdom builds anything; undefined when it
 * fits. The compare view grows with the inputs holding the word times the features.
 */
export function viewOverBudget(json: AttentionData, view: AnyViewName, options: RenderOptions = {}): string | undefined {
  if (view !== 'compare') return undefined;
  const { input, token } = resolveSelection(json, view, { input: options.input ?? 0, head: options.head ?? 0, token: options.token ?? -1 }, options.input !== undefined);
  return compareOverBudget(json, input, token);
}

export function renderSvg(json: AttentionData, view: AnyViewName, options: RenderOptions = {}): string {
  const draw = specEntry(view)?.render;
  if (!draw) throw new Error(`unknown view "${String(view)}"`);
  // For compare without an explicit input, the start is where the shared word was found.
  const { input, head, token } = resolveSelection(json, view, { input: options.input ?? 0, head: options.head ?? 0, token: options.token ?? -1 }, options.input !== undefined);
  return drawSvg((container) => draw(container, json, {
    theme: makeTheme(options.theme ?? 'light'),
    width: options.width ?? 900,
    head,
    input,
    token,
    matrixMode: options.matrixMode ?? 'weights',
    projection: options.projection ?? 'wq',
    interactive: false,
  }));
}

/** The picture `draw` makes in a container of a fresh jsdom page, as the text of a standalone SVG file. */
export function drawSvg(draw: (container: HTMLElement) => ViewHandle): string {
  const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>');
  try {
    const container = dom.window.document.getElementById('root') as unknown as HTMLElement;
    const handle = draw(container);
    const text = xmlSafe(new dom.window.XMLSerializer().serializeToString(handle.svg));
    return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
  } finally {
    dom.window.close();
  }
}
