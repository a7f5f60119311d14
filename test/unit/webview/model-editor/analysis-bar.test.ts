// A model run's page with its norms switch and head ablation (webview/model-editor/analysis-bar.ts in
// the app): the key a on a focused thumbnail, the toolbar's button and a right click each ask the
// host to run with that head switched off (or on again), building on what was asked before; the grid
// marks the heads asked for at once; Ctrl+Z asks for the heads as they were before the last toggle;
// n and the "weights | norms" button switch what the heads show; a file's page has none of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';

const scanned = scanModel(memoryAttention(randomAttention(2, 3, 6), 2, 3, 6));
const run = { type: 'run' as const, model: 'tiny', forwardMs: 2, next: [{ id: 1, token: ' sat', p: 0.5 }] };

function page(withRun = true) {
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>', { pretendToBeVisual: true });
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const posted: ModelWebviewMessage[] = [];
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, { post: (m) => posted.push(m), canSoftmax: true });
  if (withRun) app.receive(run);
  app.receive({ type: 'model', ...scanned });
  const key = (k: string, init: KeyboardEventInit = {}) => doc.activeElement!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  const focusHead = (layer: number, head: number) => {
    const cell = doc.querySelector(`g.head-cell[data-layer="${layer}"][data-head="${head}"]`) as unknown as HTMLElement;
    cell.setAttribute('tabindex', '0');
    cell.focus();
  };
  const marked = () => [...doc.querySelectorAll('g.head-cell[data-ablated="true"]')].map((g) => `${g.getAttribute('data-layer')}.${g.getAttribute('data-head')}`);
  const control = (name: string) => doc.querySelector(`[data-control="${name}"]`) as unknown as HTMLButtonElement;
  const select = (name: string) => doc.querySelector(`[data-control="${name}"]`) as unknown as HTMLSelectElement;
  const ablations = () => posted.filter((m) => m.type === 'ablate');
  return { dom, doc, app, posted, key, focusHead, marked, control, select, ablations };
}

test('a on focused heads switches them off one after another; the grid marks them at once; Ctrl+Z undoes the last', () => {
  const p = page();
  p.focusHead(0, 1);
  p.key('a');
  p.focusHead(1, 2);
  p.key('a');
  assert.deepEqual(p.ablations(), [
    { type: 'ablate', heads: [{ layer: 0, head: 1 }], mode: 'zero' },
    { type: 'ablate', heads: [{ layer: 0, head: 1 }, { layer: 1, head: 2 }], mode: 'zero' },
  ]);
  assert.deepEqual(p.marked(), ['0.1', '1.2']);
  assert.equal(p.control('restore-all').textContent, 'Restore all (2)');
  p.key('z', { ctrlKey: true });
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [{ layer: 0, head: 1 }], mode: 'zero' });
  assert.deepEqual(p.marked(), ['0.1']);
  p.key('z', { ctrlKey: true });
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [], mode: 'zero' }, 'back to the run itself');
  assert.deepEqual(p.marked(), []);
  const count = p.ablations().length;
  p.key('z', { ctrlKey: true });
  assert.equal(p.ablations().length, count, 'nothing left to undo');
});

test('a on an ablated head restores it; the run\'s own ablation is what the grid shows once it comes', () => {
  const p = page();
  p.focusHead(1, 0);
  p.key('a');
  p.app.receive({ ...run, ablation: { heads: [{ layer: 1, head: 0 }], mode: 'zero', next: run.next, logitDiff: 1, baseLogitDiff: 2, target: 1, contrast: null } });
  assert.deepEqual(p.marked(), ['1.0']);
  p.focusHead(1, 0);
  p.key('a');
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [], mode: 'zero' });
  p.app.receive(run);
  assert.deepEqual(p.marked(), []);
});

test('the toolbar: ablate the shown head, restore all, mean; a right click on a thumbnail toggles it', () => {
  const p = page();
  p.app.receive({ type: 'show', view: 'model', layer: 1, head: 1 });
  assert.equal(p.control('ablate').textContent, 'Ablate head 2.2');
  assert.equal(p.control('restore-all').disabled, true);
  p.control('ablate').click();
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [{ layer: 1, head: 1 }], mode: 'zero' });
  assert.equal(p.control('ablate').textContent, 'Restore head 2.2');
  p.select('ablation-mode').value = 'mean';
  p.select('ablation-mode').dispatchEvent(new p.dom.window.Event('change'));
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [{ layer: 1, head: 1 }], mode: 'mean' });
  p.doc.querySelector('g.head-cell[data-layer="0"][data-head="2"] rect.frame')!.dispatchEvent(new p.dom.window.MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [{ layer: 1, head: 1 }, { layer: 0, head: 2 }], mode: 'mean' });
  p.control('restore-all').click();
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [], mode: 'mean' });
  assert.deepEqual(p.marked(), []);
});

test('n and the "weights | norms" button switch the heads to norms and back; the button shows which', () => {
  const p = page();
  assert.equal(p.control('norms').getAttribute('aria-pressed'), 'false');
  assert.equal(p.control('norms').querySelector('.on')!.textContent, 'weights');
  p.focusHead(0, 0);
  p.key('n');
  assert.deepEqual(p.posted.at(-1), { type: 'norms', on: true });
  p.app.receive({ type: 'model', ...scanned, header: { ...scanned.header, norms: true } });
  assert.equal(p.control('norms').getAttribute('aria-pressed'), 'true');
  assert.equal(p.control('norms').querySelector('.on')!.textContent, 'norms');
  p.control('norms').click();
  assert.deepEqual(p.posted.at(-1), { type: 'norms', on: false });
});

test('a file\'s page (no run) has no norms switch nor ablation, and a and n ask for nothing', () => {
  const p = page(false);
  assert.equal(p.control('norms'), null);
  assert.equal(p.control('ablate'), null);
  const before = p.posted.length;
  p.focusHead(0, 0);
  p.key('a');
  p.key('n');
  p.key('z', { ctrlKey: true });
  assert.equal(p.posted.length, before);
  assert.deepEqual(p.marked(), []);
});

test('in the head view, a switches the shown head off and the view says it is ablated', () => {
  const p = page();
  p.app.receive({ type: 'show', view: 'head', layer: 1, head: 2 });
  p.app.receive({ type: 'head', layer: 1, head: 2, weights: new Float32Array(36).fill(1 / 6) });
  (p.doc.querySelector('rect.cell[tabindex="0"]') as unknown as HTMLElement).focus();
  p.key('a');
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [{ layer: 1, head: 2 }], mode: 'zero' });
  assert.match(p.doc.querySelector('svg text')!.textContent!, /^layer 2 head 3 \(ablated\): 6 × 6 weights$/);
  assert.equal(p.control('ablate').textContent, 'Restore head 2.3');
});

test('an encoder\'s run (no next token) offers the norms switch but no ablation', () => {
  const p = page(false);
  p.app.receive({ ...run, next: [], masked: [{ position: 1, guesses: [{ id: 2, token: 'cat', p: 0.5 }] }] });
  assert.ok(p.control('norms'));
  assert.equal(p.control('ablate'), null);
  p.focusHead(0, 0);
  p.key('a');
  p.doc.querySelector('g.head-cell[data-layer="0"][data-head="1"] rect.frame')!.dispatchEvent(new p.dom.window.MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
  assert.deepEqual(p.ablations(), []);
  assert.ok(!p.doc.querySelector('g.grid')!.getAttribute('aria-label')!.includes('ablates'));
});

test('a on a focused head: the focus comes back to it when the ablated run\'s heads are read again', () => {
  const p = page();
  p.focusHead(1, 0);
  p.key('a');
  const ablation = { heads: [{ layer: 1, head: 0 }], mode: 'zero' as const, next: run.next, logitDiff: 1, baseLogitDiff: 2, target: 1, contrast: null };
  p.app.receive({ ...run, forwardMs: 3, ablation });
  // The host reads the ablated run's heads again: a header with none read yet, then the heads.
  const { header, thumbnails } = scanned;
  p.app.receive({ type: 'model', header: { ...header, stats: [] }, thumbnails: new Float32Array(thumbnails.length) });
  assert.equal(p.doc.querySelectorAll('g.head-cell').length, 0, 'no head drawn while none is read');
  p.app.receive({ type: 'scanned', from: 0, stats: header.stats, thumbnails, offRows: header.offRows, warnings: header.warnings });
  const a = p.doc.activeElement!;
  assert.equal(`${a.getAttribute('class')} ${a.getAttribute('data-layer')}.${a.getAttribute('data-head')}`, 'head-cell 1.0');
  // And the keys go on working from there: Ctrl+Z asks for the run without the head.
  p.key('z', { ctrlKey: true });
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [], mode: 'zero' });
});

test('n on a focused head: the focus stays on that head in the norms\' grid, whose thumbnails carry no statistic', () => {
  const p = page();
  p.focusHead(0, 2);
  p.key('n');
  assert.deepEqual(p.posted.at(-1), { type: 'norms', on: true });
  const { header, thumbnails } = scanned;
  p.app.receive({ type: 'model', header: { ...header, stats: [], norms: true }, thumbnails: new Float32Array(thumbnails.length) });
  p.app.receive({ type: 'scanned', from: 0, stats: header.stats, thumbnails, offRows: header.offRows, warnings: header.warnings });
  const a = p.doc.activeElement!;
  assert.equal(`${a.getAttribute('class')} ${a.getAttribute('data-layer')}.${a.getAttribute('data-head')}`, 'head-cell 0.2');
  p.key('n');
  assert.deepEqual(p.posted.at(-1), { type: 'norms', on: false }, 'and n switches back from there');
});

test('a in the head view: the keyboard stays in the view when the ablated run\'s head comes again', () => {
  const p = page();
  p.app.receive({ type: 'show', view: 'head', layer: 1, head: 0 });
  p.app.receive({ type: 'head', layer: 1, head: 0, weights: new Float32Array(36).fill(1 / 6) });
  const cell = p.doc.querySelector('.model-stage [tabindex="0"]') as unknown as HTMLElement;
  cell.focus();
  p.key('a');
  assert.deepEqual(p.ablations().at(-1), { type: 'ablate', heads: [{ layer: 1, head: 0 }], mode: 'zero' });
  // The host reads the ablated run again: its header, then the head asked for anew.
  const { header, thumbnails } = scanned;
  p.app.receive({ ...run, forwardMs: 3, ablation: { heads: [{ layer: 1, head: 0 }], mode: 'zero' as const, next: run.next, logitDiff: 1, baseLogitDiff: 2, target: 1, contrast: null } });
  p.app.receive({ type: 'model', header, thumbnails });
  p.app.receive({ type: 'head', layer: 1, head: 0, weights: new Float32Array(36).fill(1 / 6) });
  const stage = p.doc.querySelector('.model-stage')!;
  assert.ok(stage.contains(p.doc.activeElement), `the focus is in the view, not on ${p.doc.activeElement!.tagName}`);
  p.key('Escape');
  assert.equal((p.doc.getElementById('root') as unknown as HTMLElement).dataset.view, 'model', 'Escape still goes back to the grid');
});
