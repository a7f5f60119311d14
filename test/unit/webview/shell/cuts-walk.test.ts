// A keyboard-only walk through every view of the spec panel and of the model page, at 430 px, the
// narrowest panel: Tab from the page's start round to it again, and Enter on every stop that is a
// text cut with "…". Every such text (one whose <title> holds more than it shows) must be a stop,
// and Enter must show its whole text, said expanded; Escape hides it again. Before, the whole text
// was only in the <title>, which a mouse hovers and a keyboard never reaches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { App, type VsCodeApi } from '../../../../webview/panel/app.js';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import { SPEC_ENTRIES } from '../../../../webview/views/registry.js';
import { MODEL_VIEW_NAMES } from '../../../../src/core/vocabulary.js';
import { analyze } from '../../../../src/core/index.js';
import { encodeAttention } from '../../../../src/core/result/wire.js';
import { MemoryModel, memoryPost } from '../../../../src/protocol/model-memory.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';
import { exampleText } from '../../../support/specs.js';
import { shownText } from '../../../../webview/shell/cuts.js';

const WIDTH = 430;

/** A page whose every element is WIDTH px wide (jsdom lays nothing out), as a 430 px panel. */
function page(body: string) {
  const dom = new JSDOM(`<!doctype html><html><body class="vscode-dark">${body}</body></html>`, { pretendToBeVisual: true });
  Object.defineProperty(dom.window.HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => WIDTH });
  // d3-zoom (the head view's zoom) reads navigator, which Node 20 does not define.
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  return dom;
}

/** The texts of `root` cut with "…" whose whole text is in their own <title>: what the keyboard must reach. */
function cutTexts(root: Element): Map<Element, string> {
  const out = new Map<Element, string>();
  for (const t of Array.from(root.querySelectorAll('svg text'))) {
    const title = Array.from(t.children).find((c) => c.localName === 'title');
    const whole = title?.textContent?.trim() ?? '';
    const shown = shownText(t).replace(/\s+/g, ' ').trim();
    if (whole && shown.includes('…') && whole !== shown) out.set(t, whole);
  }
  return out;
}

/** The document's tab order: what Tab walks (no positive tabindex is used anywhere). */
function tabOrder(doc: Document): HTMLElement[] {
  return Array.from(doc.querySelectorAll<HTMLElement>('[tabindex], button, select, input, textarea, a[href]')).filter((el) => {
    const t = el.getAttribute('tabindex');
    if (t !== null && Number(t) < 0) return false;
    if ((el as HTMLButtonElement).disabled) return false;
    return el.closest('[hidden]') === null;
  });
}

/**
 * Tab from the page's start until the focus comes round again; Enter then Escape on every cut text
 * it lands on. Returns the cut texts reached, each with what the tooltip said after Enter.
 */
function walk(dom: JSDOM, tooltip: HTMLElement, where: string): Map<Element, string> {
  const doc = dom.window.document;
  const key = (k: string) => doc.activeElement!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  const read = new Map<Element, string>();
  (doc.activeElement as HTMLElement | null)?.blur?.();
  let first: Element | undefined;
  for (let step = 0; step < 400; step++) {
    const order = tabOrder(doc);
    assert.ok(order.length > 0, `${where}: nothing to Tab to`);
    const next = order[(order.indexOf(doc.activeElement as HTMLElement) + 1) % order.length];
    next.focus();
    assert.equal(doc.activeElement, next, `${where}: Tab landed on ${next.localName}.${next.getAttribute('class')}`);
    if (next === first) return read;
    first ??= next;
    if (!next.closest('svg') || !next.classList.contains('al-cut')) continue;
    assert.equal(next.getAttribute('aria-expanded'), 'false', `${where}: a cut text starts folded`);
    key('Enter');
    assert.equal(next.getAttribute('aria-expanded'), 'true', `${where}: Enter expands "${shownText(next)}"`);
    assert.equal(tooltip.hidden, false, `${where}: the whole text is shown`);
    read.set(next, tooltip.textContent ?? '');
    key('Escape');
    assert.equal(next.getAttribute('aria-expanded'), 'false', `${where}: Escape folds it`);
    assert.equal(tooltip.hidden, true, `${where}: and hides the text`);
    assert.equal(doc.activeElement, next, `${where}: the focus stays on it`);
  }
  assert.fail(`${where}: Tab never came round`);
}

/** Every cut text is reached and read whole; returns how many there were. */
function assertAllRead(root: Element, read: Map<Element, string>, where: string): number {
  const cuts = cutTexts(root);
  for (const [el, whole] of cuts) {
    assert.ok(read.has(el), `${where}: "${shownText(el)}" (whole: "${whole}") is never reached by Tab`);
    assert.equal(read.get(el), whole, `${where}: Enter on "${shownText(el)}" shows its whole text`);
  }
  return cuts.size;
}

/** The examples whose views cut the most at 430 px: long notes, 64 tokens, 128 features, a 512 × 64 head. */
const SPEC_EXAMPLES = ['long-64-tokens-8-heads.attn.json', 'init-four-rules.attn.json', 'multi-head-causal.attn.json', 'seed-projection-512-64.attn.json'];

test('spec panel at 430 px: Tab reaches every text cut with "…" in every view, and Enter shows it whole', () => {
  let total = 0;
  for (const example of SPEC_EXAMPLES) {
    const text = exampleText(example);
    const wire = encodeAttention(analyze(text).data!);
    const linalg = analyze(text, { linalg: true }).data!.linalg!;
    for (const e of SPEC_ENTRIES) {
      if (e.name === 'summary') continue;
      const dom = page('<main id="attention-root" data-document-uri="u" data-file-name="f.attn.json"></main><div id="attention-tooltip"></div>');
      const doc = dom.window.document;
      let state: unknown = { view: e.name, head: 0, input: 0, token: 0, documentUri: 'u' };
      const api: VsCodeApi = { postMessage: () => {}, getState: () => state, setState: (s) => { state = s; } };
      const tooltip = doc.getElementById('attention-tooltip')!;
      const app = new App(doc.getElementById('attention-root')!, tooltip, api);
      app.start();
      app.receive({ type: 'render', documentUri: 'u', fileName: 'f.attn.json', version: 1, result: wire.header, buffer: wire.buffer, warnings: [] });
      if (e.needs === 'linalg') app.receive({ type: 'linalg', documentUri: 'u', version: 1, linalg });
      const where = `${example} ${e.name}`;
      const view = doc.getElementById('attention-view')!;
      total += assertAllRead(view, walk(dom, tooltip, where), where);
      app.dispose();
      dom.window.close();
    }
  }
  assert.ok(total >= 20, `the walk met ${total} cut texts: too few for it to prove anything`);
});

test('model page at 430 px: Tab reaches every text cut with "…" in every view, and Enter shows it whole', async () => {
  // Long token names and a long model name: the views cut them.
  const n = 24;
  const tokens = Array.from({ length: n }, (_, i) => ` a-rather-long-token-name-number-${i}`);
  const attention = memoryAttention(randomAttention(3, 4, n, 7), 3, 4, n, tokens);
  let total = 0;
  for (const view of MODEL_VIEW_NAMES) {
    const dom = page('<main id="root"></main><div id="attention-tooltip"></div>');
    const doc = dom.window.document;
    const tooltip = doc.getElementById('attention-tooltip')!;
    const model = new MemoryModel(attention);
    let painted = 0;
    const app: ModelApp = new ModelApp(doc.getElementById('root')!, tooltip, {
      canSoftmax: false,
      post: memoryPost(model, (reply) => app.receive(reply), (m) => { if (m.type === 'painted') painted++; }),
    }, { view });
    app.start();
    app.receive({ type: 'run', model: 'an-organisation-with-a-long-name/a-model-with-an-even-longer-name-than-that', forwardMs: 12,
      next: [{ id: 3, token: ' sat', p: 0.9632 }, { id: 2, token: ' a-token-far-too-long-to-be-drawn-whole-in-a-narrow-panel', p: 0.0196 }] });
    // The header, then what the view asks for (a head, the rollout), each a moment later.
    for (let k = 0; k < 20 && doc.getElementById('root')!.dataset.state !== 'ready'; k++) await new Promise((r) => setImmediate(r));
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
    assert.equal(doc.getElementById('root')!.dataset.view, view, `${view} is drawn (${painted} paintings)`);
    const stage = doc.querySelector('.model-stage')!;
    total += assertAllRead(stage, walk(dom, tooltip, `model ${view}`), `model ${view}`);
    app.dispose();
    dom.window.close();
  }
  assert.ok(total >= 2, `the walk met ${total} cut texts: too few for it to prove anything`);
});

test('a cut text focused before a redraw (a new render of the spec, a resize) is focused after it', () => {
  const text = exampleText('long-64-tokens-8-heads.attn.json');
  const wire = encodeAttention(analyze(text).data!);
  const render = { type: 'render', documentUri: 'u', fileName: 'f.attn.json', version: 1, result: wire.header, buffer: wire.buffer, warnings: [] };
  const dom = page('<main id="attention-root" data-document-uri="u" data-file-name="f.attn.json"></main><div id="attention-tooltip"></div>');
  const doc = dom.window.document;
  let state: unknown = { view: 'arcs', head: 0, input: 0, token: 0, documentUri: 'u' };
  const api: VsCodeApi = { postMessage: () => {}, getState: () => state, setState: (s) => { state = s; } };
  const app = new App(doc.getElementById('attention-root')!, doc.getElementById('attention-tooltip')!, api);
  app.start();
  app.receive(render);
  const cuts = doc.querySelectorAll<HTMLElement>('#attention-view .al-cut');
  assert.ok(cuts.length >= 2, `${cuts.length} cut texts in arcs at ${WIDTH} px`);
  cuts[1].focus();
  app.receive({ ...render, version: 2 });
  assert.notEqual(doc.activeElement, cuts[1], 'a new picture');
  assert.equal(doc.activeElement?.getAttribute('data-cut'), '1');
  assert.ok(doc.activeElement?.classList.contains('al-cut'));
  app.dispose();
  dom.window.close();
});
