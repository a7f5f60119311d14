// A spec of the largest input a spec may hold (MAX_TOKENS = 2,048 tokens, as a lens on a long run
// writes), computed once: one causal head over 4 features, 100 words each repeated every 100 tokens.
import { JSDOM, VirtualConsole } from 'jsdom';
import { analyze } from '../../src/core/index.js';
import { makeTheme } from '../../webview/kit/colour.js';
import type { ViewFn, ViewOptions } from '../../webview/kit/view.js';
import type { AttentionData } from '../../src/core/result/attention-data.js';
import { MAX_TOKENS } from '../../src/core/spec/read/inputs.js';

let cached: AttentionData | undefined;

export function longSpecData(): AttentionData {
  if (cached) return cached;
  // A word every 100 tokens comes again (its repeats are its strongest keys); "w0", the first token, is a sink.
  const n = MAX_TOKENS, words = 100;
  const embeddings = Object.fromEntries(Array.from({ length: words }, (_, w) => [`w${w}`, [3 * Math.sin(w), 3 * Math.cos(w * 1.3), (w % 7) / 2, w === 0 ? 6 : 0.5]]));
  const tokens = Array.from({ length: n }, (_, i) => `w${(i * 37) % words}`);
  const a = analyze(JSON.stringify({ embeddings, inputs: [{ name: 'long', tokens }], mask: 'causal' }));
  const errors = a.problems.filter((p) => p.severity === 'error');
  if (errors.length || !a.data) throw new Error(`the long spec: ${errors.map((p) => p.message).join('; ')}`);
  cached = a.data;
  return cached;
}

/** Draws a spec view in a fresh page (interactive: a tooltip that records its lines, and the picks it makes). */
export function drawSpecView(render: ViewFn, data: AttentionData, extra: Partial<ViewOptions> = {}) {
  // A silent console: jsdom says on its own that it paints no canvas (the matrix's pixels are a browser's).
  const dom = new JSDOM('<!doctype html><body><div id="root"></div></body>', { pretendToBeVisual: true, virtualConsole: new VirtualConsole() });
  const root = dom.window.document.getElementById('root') as unknown as HTMLElement;
  const picks: Record<string, unknown>[] = [];
  const tips: string[][] = [];
  const began = performance.now();
  const handle = render(root, data, {
    theme: makeTheme('light'), width: 900, head: 0, input: 0, token: -1, matrixMode: 'weights', projection: 'wq', interactive: false,
    onPick: (p) => { picks.push(p as Record<string, unknown>); },
    tooltip: { show: (lines: readonly string[]) => { tips.push([...lines]); }, hide: () => {} },
    ...extra,
  });
  const ms = performance.now() - began;
  /** Every element the picture holds (its SVG), the bound a long input must keep. */
  const elements = handle.svg.querySelectorAll('*').length;
  return { dom, handle, svg: handle.svg, picks, tips, ms, elements };
}
