// The panel's story strip (webview/panel/story.ts) and the spec's "open" as the panel applies it; and,
// through the panel shell, that a spec seen for the first time opens where it says, shows its
// description as text (markup stays text) and a Next button that posts 'openNext', while later
// renders of it keep the user's choices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { applyOpen, showStory } from '../../../../webview/panel/story.js';
import { DEFAULT_STATE } from '../../../../webview/panel/state.js';
import { App, type VsCodeApi } from '../../../../webview/panel/app.js';
import { analyze } from '../../../../src/core/index.js';
import { encodeAttention } from '../../../../src/core/result/wire.js';
import type { WebviewMessage } from '../../../../src/protocol/panel.js';
import { exampleText } from '../../../support/specs.js';

test('applyOpen sets what "open" names, and the first input for a token without an input', () => {
  const from = { ...DEFAULT_STATE, input: 1, hiddenHeads: [0] };
  assert.deepEqual(applyOpen(from, undefined), from);
  assert.deepEqual(applyOpen(from, { view: 'matrix', head: 1, token: 3, matrix: 'scores' }),
    { ...from, view: 'matrix', head: 1, token: 3, matrixMode: 'scores', input: 0 });
  assert.deepEqual(applyOpen(from, { input: 1, projection: 'wk' }), { ...from, input: 1, projection: 'wk' });
});

test('showStory writes the description as text and a Next button; nothing to show hides the strip', () => {
  const doc = new JSDOM('<section></section>').window.document;
  const box = doc.querySelector('section') as HTMLElement;
  const asked: string[] = [];
  showStory(box, { description: '<img src=x onerror=alert(1)> 136 vs 64', next: { file: 'b.attn.json', title: 'The lens' } }, (f) => asked.push(f));
  assert.equal(box.hidden, false);
  assert.equal(box.querySelector('.al-description')?.textContent, '<img src=x onerror=alert(1)> 136 vs 64');
  assert.equal(box.querySelector('img'), null, 'markup in a spec stays text');
  const next = box.querySelector('button.al-next') as HTMLButtonElement;
  assert.equal(next.textContent, 'Next: The lens');
  next.click();
  assert.deepEqual(asked, ['b.attn.json']);
  showStory(box, undefined, () => {});
  assert.equal(box.hidden, true);
  assert.equal(box.children.length, 0);
});

test('the panel opens a new spec where its "open" says, once; the description is at the top; Next posts openNext', () => {
  const uri = 'file:///w/apple-watch-lens.attn.json';
  const dom = new JSDOM(`<!doctype html><html><body class="vscode-light">
    <main id="attention-root" data-document-uri="${uri}" data-file-name="apple-watch-lens.attn.json"></main>
    <div id="attention-tooltip"></div></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  const posted: WebviewMessage[] = [];
  let saved: unknown;
  const api: VsCodeApi = { postMessage: (m) => posted.push(m), getState: () => saved, setState: (s) => { saved = s; } };
  const root = doc.getElementById('attention-root')!;
  const app = new App(root, doc.getElementById('attention-tooltip')!, api);
  app.start();
  const wire = encodeAttention(analyze(exampleText('apple-watch-lens.attn.json')).data!);
  const story = { description: 'Step 2: the lens.', open: { view: 'matrix' as const, head: 1, token: 3, matrix: 'scores' as const }, next: { file: 'n.attn.json', title: 'Next one' } };
  const render = (version: number) => ({ type: 'render', documentUri: uri, fileName: 'apple-watch-lens.attn.json', version, result: wire.header, buffer: wire.buffer, warnings: [], story });
  app.receive(render(1));
  assert.equal(root.children[1].id, 'attention-story', 'the story strip is right under the title');
  assert.equal(doc.querySelector('.al-description')?.textContent, 'Step 2: the lens.');
  assert.equal(doc.querySelector('.al-tab[aria-selected="true"]')?.getAttribute('data-view'), 'matrix');
  assert.equal((doc.querySelector('select[data-control="head"]') as HTMLSelectElement).value, '1');
  assert.equal((doc.querySelector('select[data-control="mode"]') as HTMLSelectElement).value, 'scores');
  assert.deepEqual((saved as { view: string }).view, 'matrix', 'remembered, so a reload keeps it');
  // The user moves on; the next version of the same spec keeps their choice.
  (doc.querySelector('.al-tab[data-view="arcs"]') as HTMLButtonElement).click();
  app.receive(render(2));
  assert.equal(doc.querySelector('.al-tab[aria-selected="true"]')?.getAttribute('data-view'), 'arcs');
  (doc.querySelector('button.al-next') as HTMLButtonElement).click();
  assert.deepEqual(posted.filter((m) => m.type === 'openNext'), [{ type: 'openNext', documentUri: uri, file: 'n.attn.json' }]);
  app.dispose();
});
