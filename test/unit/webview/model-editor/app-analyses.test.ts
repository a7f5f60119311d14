// The model page's shell with a run's analyses (webview/model-editor/app.ts, run-analyses.ts): the logit
// lens is asked for once when its view opens and drawn when it comes (kept while the same run's news is
// told again, asked anew for a new run); the attribution view draws what the analyses message brought;
// a run with generated tokens gets a slider whose arrows ask the host for a step; every view's labels
// mark the generated tokens; a malformed analyses message is an error panel, never a crash. Beside the
// slider, the ablation bar and the norms switch: a's and n's keys act on the page, the slider's arrows
// on the step, and an ablated run's news keeps the slider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';
import { attributionOf, lensOf, RUN } from '../../../support/run-analyses-fixture.js';
import { generationStep } from '../../../../webview/model-editor/run-analyses.js';

const tokens = ['The', ' cat', ' sat', ' on', ' the', ' mat', '.', ' The', ' cat'];

function page() {
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>');
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const posted: ModelWebviewMessage[] = [];
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, { post: (m) => posted.push(m), canSoftmax: false });
  const model = (n = tokens.length) => ({ type: 'model', ...scanModel(memoryAttention(randomAttention(2, 3, n), 2, 3, n, tokens.slice(0, n))) });
  const show = (view: string) => app.receive({ type: 'show', view, layer: 0, head: 0 });
  return { dom, doc, root, app, posted, model, show };
}

test('the logit lens is asked for once when its view opens, drawn when it comes, and asked again for a new run', () => {
  const { doc, app, posted, model, show } = page();
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length });
  app.receive(model());
  show('logit-lens');
  assert.match(doc.querySelector('svg')!.textContent!, /computing what each layer predicts/);
  show('model');
  show('logit-lens');
  assert.equal(posted.filter((m) => m.type === 'logitLens').length, 1);
  app.receive({ type: 'logitLens', lens: lensOf(2, tokens) });
  assert.equal(doc.querySelectorAll('rect.cell').length, 2 * tokens.length);
  // The same run told again (its views reopened): the lens stays.
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length });
  app.receive(model());
  assert.equal(doc.querySelectorAll('rect.cell').length, 2 * tokens.length);
  // A new run: asked for again.
  app.receive({ type: 'run', ...RUN, forwardMs: 13 });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length });
  app.receive(model());
  assert.equal(posted.filter((m) => m.type === 'logitLens').length, 2);
  app.receive({ type: 'logitLens', error: 'the run gave no logit lens' });
  assert.match(doc.querySelector('svg')!.textContent!, /^logit lens: the run gave no logit lens/);
});

test('the attribution view draws the run\'s attribution, and its head opens the head view', () => {
  const { doc, dom, app, root, posted, model, show } = page();
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length, target: ' sat', attribution: attributionOf(2, 3) });
  app.receive(model());
  show('attribution');
  assert.equal(doc.querySelectorAll('rect.cell[data-head]').length, 6);
  doc.querySelector('rect.cell[data-layer="1"][data-head="2"]')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(root.dataset.view, 'head');
  assert.deepEqual(posted.filter((m) => m.type === 'head').at(-1), { type: 'head', layer: 1, head: 2 });
});

test('generated tokens: a slider whose arrows ask for a step, and every view\'s labels mark them', () => {
  const { doc, dom, app, posted, model, show } = page();
  const generated = [{ id: 1, token: ' The' }, { id: 2, token: ' cat' }];
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length, generated });
  app.receive(model());
  const slider = doc.querySelector<HTMLInputElement>('input[data-control="step"]')!;
  assert.ok(slider, 'a slider through the generated tokens');
  assert.deepEqual([slider.min, slider.max, slider.value], ['7', '9', '9']);
  assert.equal(doc.querySelector('.step-says')!.textContent, '2 of 2: " cat"');
  slider.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  assert.equal(posted.filter((m) => m.type === 'step').length, 0, 'nothing past the end');
  slider.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'step', tokens: 8 });
  // The host reopens the views on the run's first 8 tokens.
  app.receive({ type: 'analyses', positions: tokens.length, shown: 8, generated });
  app.receive(model(8));
  assert.equal(doc.querySelector('.step-says')!.textContent, '1 of 2: " The"');
  // The head view's labels mark the generated token (its picture waits for the head, the labels do not).
  show('head-tokens');
  app.receive({ type: 'head', layer: 0, head: 0, weights: new Float32Array(64).fill(1 / 8) });
  assert.ok([...doc.querySelectorAll('text')].some((t) => /" The"⁺/.test(t.textContent!)), 'a generated token is marked');
  assert.ok(![...doc.querySelectorAll('text')].some((t) => /"The"⁺/.test(t.textContent!)), 'the text\'s own are not');
});

test('a run without generated tokens has no slider; a malformed analyses message is an error panel', () => {
  const { doc, app, root, model } = page();
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length });
  app.receive(model());
  assert.equal(doc.querySelector('input[data-control="step"]'), null);
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length, patching: [[1, Number.NaN]] });
  assert.equal(root.dataset.state, 'error');
  assert.match(doc.querySelector('[role=alert]')!.textContent!, /patching is not \[layer\]\[head\] numbers/);
});

test('the step says where the generation stands, clamped to the text and the run', () => {
  const a = { positions: 10, shown: 10, generated: [{ id: 1, token: 'a' }, { id: 2, token: 'b' }, { id: 3, token: 'c' }] };
  assert.deepEqual(generationStep(a, 7), { from: 7, to: 10, shown: 7, says: '0 of 3: the text alone' });
  assert.equal(generationStep(a, 99)!.shown, 10);
  assert.equal(generationStep({ positions: 4, shown: 4 }, 4), undefined);
});

test('generated tokens and the ablation bar share the toolbar: a ablates, n switches, the slider\'s keys only step', () => {
  const { doc, dom, root, app, posted, model, show } = page();
  const generated = [{ id: 1, token: ' The' }, { id: 2, token: ' cat' }];
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length, generated });
  app.receive(model());
  show('head');
  const controls = [...doc.querySelectorAll<HTMLElement>('[data-control]')].map((e) => e.dataset.control);
  for (const c of ['step', 'norms', 'ablate', 'restore-all', 'ablation-mode']) assert.ok(controls.includes(c), `${c} in ${controls.join(', ')}`);
  const key = (target: EventTarget, k: string) => target.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true }));
  const slider = doc.querySelector<HTMLInputElement>('input[data-control="step"]')!;
  key(slider, 'a');
  key(slider, 'n');
  assert.deepEqual(posted.filter((m) => m.type === 'ablate' || m.type === 'norms'), [], 'keys typed in the slider are its own');
  key(slider, 'ArrowLeft');
  assert.deepEqual(posted.at(-1), { type: 'step', tokens: 8 });
  const asked = () => posted.filter((m) => m.type === 'ablate' || m.type === 'norms');
  key(root, 'a');
  key(root, 'n');
  assert.deepEqual(asked(), [{ type: 'ablate', heads: [{ layer: 0, head: 0 }], mode: 'zero' }, { type: 'norms', on: true }]);
  // The ablated run comes back whole (the host resets the step): the slider and the ablation are both shown.
  const ablation = { heads: [{ layer: 0, head: 0 }], mode: 'zero' as const, next: RUN.next, logitDiff: 1, baseLogitDiff: 2, target: 3, contrast: null };
  app.receive({ type: 'run', ...RUN, forwardMs: 14, ablation });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length, generated });
  app.receive(model());
  assert.equal(doc.querySelector<HTMLInputElement>('input[data-control="step"]')!.value, String(tokens.length));
  assert.match(doc.querySelector('[data-control="ablate"]')!.textContent!, /^Restore head 1\.1/);
});

test('the next-token view at a step of the generation asks for the lens and lists its last layer at that position', () => {
  const { doc, app, posted, model, show } = page();
  const generated = [{ id: 1, token: ' The' }, { id: 2, token: ' cat' }];
  app.receive({ type: 'run', ...RUN });
  app.receive({ type: 'analyses', positions: tokens.length, shown: tokens.length, generated });
  app.receive(model());
  show('next');
  assert.equal(posted.filter((m) => m.type === 'logitLens').length, 0, 'the whole run: its own five, no lens asked');
  assert.deepEqual([...doc.querySelectorAll('text.token')].map((t) => t.textContent), [JSON.stringify(RUN.next[0].token)]);
  // A step back: the run's own five are of its end, not of position 8.
  app.receive({ type: 'analyses', positions: tokens.length, shown: 8, generated });
  app.receive(model(8));
  assert.equal(posted.filter((m) => m.type === 'logitLens').length, 1);
  assert.match(doc.querySelector('svg')!.textContent!, /next token at this step: computing what the model predicts after/);
  assert.equal(doc.querySelectorAll('text.token').length, 0, 'no list of another position meanwhile');
  const lens = lensOf(2, tokens);
  app.receive({ type: 'logitLens', lens });
  const listed = [...doc.querySelectorAll('text.token')].map((t) => t.textContent);
  assert.deepEqual(listed, lens[1][7].map((t) => JSON.stringify(t.token)));
  assert.equal(listed[0], JSON.stringify(tokens[8]), 'after position 8 the lens predicts the ninth token');
  assert.match(doc.querySelector('text.note')!.textContent!, /prediction at this step of the generation/);
});
