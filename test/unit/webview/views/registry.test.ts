// The view registry (webview/views/registry.ts): one entry per view, spec and model views in one
// table, the tabs in the protocol's order, the model editor's menu in the vocabulary's, the toolbar
// built from each entry's controls, and every entry drawing on jsdom from the data it says it needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { MODEL_ENTRIES, MODEL_VIEWS, REGISTRY, SPEC_ENTRIES, VIEWS, modelEntry, specEntry, viewEntry } from '../../../../webview/views/registry.js';
import { MODEL_VIEW_NAMES, VIEW_NAMES } from '../../../../src/core/vocabulary.js';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';
import { App, type VsCodeApi } from '../../../../webview/panel/app.js';
import { analyze } from '../../../../src/core/index.js';
import { encodeAttention } from '../../../../src/core/result/wire.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { exampleText } from '../../../support/specs.js';

test('the registry holds every view of the protocol, in its order, and the summary strip', () => {
  assert.deepEqual(SPEC_ENTRIES.map((e) => e.name).filter((n) => n !== 'summary'), [...VIEW_NAMES]);
  assert.equal(new Set(REGISTRY.map((e) => e.name)).size, REGISTRY.length, 'no name twice');
  for (const e of SPEC_ENTRIES) {
    assert.equal(viewEntry(e.name), e);
    assert.equal(specEntry(e.name), e);
    assert.equal(modelEntry(e.name), undefined);
    assert.ok(e.needs === 'spec' || e.needs === 'linalg', `${e.name} needs ${e.needs}`);
    assert.equal(VIEWS[e.name], e.render);
    assert.ok(e.title.length > 0);
    if (e.controls.includes('token')) assert.ok(e.tokenLabel, `${e.name}: its token menu has a name`);
  }
  assert.equal(viewEntry('nope'), undefined);
});

test('the same table holds the model editor\'s views, in the vocabulary\'s order, each needing a model file', () => {
  assert.deepEqual(MODEL_ENTRIES.map((e) => e.name), [...MODEL_VIEW_NAMES]);
  assert.deepEqual(REGISTRY.filter((e) => e.needs === 'model'), [...MODEL_ENTRIES]);
  assert.equal(SPEC_ENTRIES.length + MODEL_ENTRIES.length, REGISTRY.length, 'every entry is a spec view or a model view');
  for (const e of MODEL_ENTRIES) {
    assert.equal(viewEntry(e.name), e);
    assert.equal(modelEntry(e.name), e);
    assert.equal(specEntry(e.name), undefined, `${e.name} is not drawn from a spec`);
    assert.equal(MODEL_VIEWS[e.name], e.render);
    assert.ok(e.title.length > 0);
  }
});

test('the model editor\'s view menu is the registry\'s model entries, and each draws its own view', () => {
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>');
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const app = new ModelApp(doc.getElementById('root') as unknown as HTMLElement, doc.getElementById('tip') as unknown as HTMLElement, { post: () => {}, canSoftmax: false });
  app.receive({ type: 'model', ...scanModel(memoryAttention(randomAttention(1, 2, 4), 1, 2, 4)) });
  const menu = doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!;
  assert.deepEqual(Array.from(menu.options, (o) => o.value), MODEL_ENTRIES.map((e) => e.name));
  assert.deepEqual(Array.from(menu.options, (o) => o.title), MODEL_ENTRIES.map((e) => e.title));
  for (const e of MODEL_ENTRIES) {
    menu.value = e.name;
    menu.dispatchEvent(new dom.window.Event('change'));
    assert.equal(doc.querySelector('main svg')!.getAttribute('data-view'), e.name);
  }
  app.dispose();
  dom.window.close();
});

test('every entry draws the multi-head example on jsdom, with a title for each cell it hovers', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  for (const e of SPEC_ENTRIES) {
    const dom = new JSDOM('<!doctype html><div id="r"></div>');
    const handle = e.render(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
      theme: makeTheme('light'), width: 800, head: 0, input: 0, token: 1, matrixMode: 'weights', projection: 'wq', interactive: false,
    });
    assert.equal(handle.svg.getAttribute('data-view'), e.name);
    handle.destroy();
    dom.window.close();
  }
});

function panel(view: string) {
  const dom = new JSDOM(`<!doctype html><html><body class="vscode-light"><main id="attention-root" data-document-uri="u" data-file-name="f"></main><div id="attention-tooltip"></div></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  let state: unknown = { view, head: 0, input: 0, token: -1, documentUri: 'u' };
  const api: VsCodeApi = { postMessage: () => {}, getState: () => state, setState: (s) => { state = s; } };
  const app = new App(doc.getElementById('attention-root')!, doc.getElementById('attention-tooltip')!, api);
  app.start();
  const wire = encodeAttention(analyze(exampleText('mouse-two-contexts.attn.json')).data!);
  app.receive({ type: 'render', documentUri: 'u', fileName: 'f', version: 1, result: wire.header, buffer: wire.buffer, warnings: [] });
  const controls = Array.from(doc.querySelectorAll('.al-controls label > span'), (l) => l.textContent);
  app.dispose();
  dom.window.close();
  return controls;
}

test('the toolbar shows the controls of the view\'s entry, named as the entry says', () => {
  for (const e of SPEC_ENTRIES.filter((x) => x.name !== 'summary')) {
    const shown = panel(e.name);
    const expected: string[] = [];
    // The mouse example has two inputs and one head: the input menu shows where the entry has one.
    if (e.controls.includes('input')) expected.push('Input');
    if (e.controls.includes('head')) expected.push('Head');
    if (e.controls.includes('token')) expected.push(e.tokenLabel!);
    if (e.controls.includes('mode')) expected.push('Show');
    if (e.controls.includes('projection')) expected.push('Matrix');
    assert.deepEqual(shown, expected, e.name);
  }
  assert.ok(panel('geometry').includes('Query'), 'the geometry view lets the user pick its query');
});

test('a view whose numbers the result lacks asks the host once per version, says it is working, and draws when they come', () => {
  const dom = new JSDOM(`<!doctype html><html><body class="vscode-light"><main id="attention-root" data-document-uri="u" data-file-name="f"></main><div id="attention-tooltip"></div></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  const posted: { type: string; version?: number; what?: string }[] = [];
  let state: unknown = { view: 'spectrum', head: 0, input: 0, token: -1, documentUri: 'u' };
  const api: VsCodeApi = { postMessage: (m) => posted.push(m), getState: () => state, setState: (s) => { state = s; } };
  const app = new App(doc.getElementById('attention-root')!, doc.getElementById('attention-tooltip')!, api);
  app.start();
  const text = exampleText('spectrum-stretch-shear-rotate.attn.json');
  const wire = encodeAttention(analyze(text).data!);
  app.receive({ type: 'render', documentUri: 'u', fileName: 'f', version: 3, result: wire.header, buffer: wire.buffer, warnings: [] });
  assert.deepEqual(posted.filter((m) => m.type === 'need'), [{ type: 'need', documentUri: 'u', version: 3, what: 'linalg' }]);
  assert.match(doc.querySelector('#attention-view svg')!.textContent!, /Working out the spectra/);
  app.receive({ type: 'render', documentUri: 'u', fileName: 'f', version: 3, result: wire.header, buffer: wire.buffer, warnings: [] });
  assert.equal(posted.filter((m) => m.type === 'need').length, 1, 'asked once for a version');
  // An answer for another version is not drawn; the right one is.
  const linalg = analyze(text, { linalg: true }).data!.linalg!;
  app.receive({ type: 'linalg', documentUri: 'u', version: 2, linalg });
  assert.match(doc.querySelector('#attention-view svg')!.textContent!, /Working out the spectra/);
  app.receive({ type: 'linalg', documentUri: 'u', version: 3, linalg });
  assert.match(doc.querySelector('#attention-view svg')!.textContent!, /W_Q \(2 × 2\)/);
  app.dispose();
  dom.window.close();
});
