// The model editor's kept state (VS Code's webview getState/setState): a page made anew (its tab
// hidden and shown, or moved to another group) opens on the view and head that were shown; a
// state that is not the editor's own gives nothing, field by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import { keptThrough, readKept } from '../../../../webview/model-editor/kept-state.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { MODEL_VIEW_NAMES } from '../../../../src/core/vocabulary.js';
import { STAT_NAMES } from '../../../../src/core/tensors/head-stats.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';

/** A VS Code API stand-in whose state outlives the pages made on it, as VS Code's does. */
function vscodeApi() {
  let state: unknown;
  return { postMessage: () => {}, getState: () => structuredClone(state), setState: (s: unknown) => { state = structuredClone(s); } };
}

function page(api: ReturnType<typeof vscodeApi>) {
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>');
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const posted: ModelWebviewMessage[] = [];
  const { initial, keep } = keptThrough(api);
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, { post: (m) => posted.push(m), canSoftmax: true, keep }, initial);
  return { dom, doc, root, app, posted };
}

test('the view, layer and head chosen come back when the page is made anew (tab hidden or moved)', () => {
  const a = memoryAttention(randomAttention(3, 4, 6), 3, 4, 6);
  const api = vscodeApi();
  const first = page(api);
  first.app.start();
  first.app.receive({ type: 'model', ...scanModel(a) });
  const choose = (control: string, value: string) => {
    const el = first.doc.querySelector<HTMLInputElement>(`[data-control="${control}"]`)!;
    el.value = value;
    el.dispatchEvent(new first.dom.window.Event('change', { bubbles: true }));
  };
  choose('view', 'finder');
  choose('layer', '3');
  choose('head', '2');
  choose('statistic', 'sink');
  first.app.dispose();
  // VS Code dropped the hidden page; the new one reads the state back before its first drawing.
  const second = page(api);
  second.app.start();
  second.app.receive({ type: 'model', ...scanModel(a) });
  assert.equal(second.root.dataset.view, 'finder');
  assert.equal(second.doc.querySelector<HTMLInputElement>('[data-control="layer"]')!.value, '3');
  assert.equal(second.doc.querySelector<HTMLInputElement>('[data-control="head"]')!.value, '2');
  assert.equal(second.doc.querySelector<HTMLSelectElement>('[data-control="statistic"]')!.value, 'sink');
  // A head view comes back asking for its head, the one that was shown.
  choose('view', 'head');
  const third = page(api);
  third.app.start();
  third.app.receive({ type: 'model', ...scanModel(a) });
  assert.equal(third.root.dataset.view, 'head');
  assert.deepEqual(third.posted.find((m) => m.type === 'head'), { type: 'head', layer: 2, head: 1 });
});

test('a kept state is read as untrusted: only well-formed fields are taken, whatever it holds', () => {
  const valid = (k: string, v: unknown) => ({
    view: MODEL_VIEW_NAMES.includes(v as never), stat: STAT_NAMES.includes(v as never),
    layer: Number.isInteger(v) && (v as number) >= 0, head: Number.isInteger(v) && (v as number) >= 0, token: Number.isInteger(v) && (v as number) >= 0,
    sort: typeof v === 'boolean', k: Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 16,
  } as Record<string, boolean>)[k] ?? false;
  const field = fc.oneof(fc.constantFrom(...MODEL_VIEW_NAMES, ...STAT_NAMES, 'toString', '__proto__', ''), fc.integer({ min: -5, max: 1 << 21 }), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.string());
  const saved = fc.oneof(fc.dictionary(fc.constantFrom('view', 'layer', 'head', 'token', 'stat', 'sort', 'k', 'other', '__proto__'), field), fc.anything());
  fc.assert(fc.property(saved, (s) => {
    const got = readKept(s);
    for (const [k, v] of Object.entries(got)) {
      assert.ok(valid(k, v), `${k}: ${JSON.stringify(v)} taken from ${JSON.stringify(s)}`);
      assert.ok(typeof v !== 'number' || v < 1 << 20, 'no index past the largest model');
      assert.equal(v, (s as Record<string, unknown>)[k], 'taken as it was, not made up');
    }
  }), { seed: 30, numRuns: 2000 });
  assert.deepEqual(readKept({ view: 'rollout', layer: 2, head: 0, token: 5, stat: 'sink', sort: true, k: 4 }), { view: 'rollout', layer: 2, head: 0, token: 5, stat: 'sink', sort: true, k: 4 });
  // A state that throws when read back is forgotten, not the page's end.
  assert.deepEqual(keptThrough({ getState: () => { throw new Error('gone'); }, setState: () => {} }).initial, {});
});
