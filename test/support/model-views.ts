// Drawing one model view on jsdom for its tests: the options the views take (light theme, 900 px,
// not interactive unless asked), a page to draw in, and the keys and focus a keyboard user sends.
import { JSDOM } from 'jsdom';
import { makeTheme } from '../../webview/kit/colour.js';
import { MODEL_VIEWS } from '../../webview/views/registry.js';
import type { ModelViewOptions } from '../../webview/views/model/common.js';
import type { ModelViewData } from '../../src/core/model-attention/data.js';
import type { ModelViewName } from '../../src/core/vocabulary.js';

export function modelOptions(extra: Partial<ModelViewOptions> = {}): ModelViewOptions {
  return { theme: makeTheme('light'), width: 900, interactive: false, layer: 0, head: 0, token: 0, stat: 'entropy', sort: false, k: 2, ...extra };
}

/** Draws `view` in a fresh page; interactive views get a tooltip that records what it shows. */
export function drawModel(view: ModelViewName, data: ModelViewData, extra: Partial<ModelViewOptions> = {}) {
  const dom = new JSDOM('<!doctype html><body><div id="root"></div></body>', { pretendToBeVisual: true });
  // d3-zoom (the head view's zoom) reads navigator, which Node 20 does not define.
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const tips: string[][] = [];
  const asked: number[][] = [];
  const options = modelOptions({
    ...(extra.interactive ? { tooltip: { show: (lines: readonly string[]) => { tips.push([...lines]); }, hide: () => {} } } : {}),
    askWindow: (...a: number[]) => { asked.push(a); },
    ...extra,
  });
  const handle = MODEL_VIEWS[view](root, data, options);
  const key = (el: Element, k: string, init: KeyboardEventInit = {}) => el.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, ...init }));
  return { dom, doc, root, handle, svg: handle.svg, tips, asked, key, active: () => doc.activeElement };
}
