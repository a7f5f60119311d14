// The renderer's entry (webview/notebook/main.ts) with a stand-in of VS Code's renderer context:
// Open in Attention Lens posts { type: 'open', id, payload }; the host's reply for that id (checked)
// settles it, a forged or stale one is dropped; drawings are reported; without messaging there is
// no button; an output whose JSON cannot be read is one line; disposing empties the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { activate, type OutputItem } from '../../../../webview/notebook/main.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomPayload } from '../../../support/payload.js';
import { ROOT } from '../../../support/paths.js';
import { gridThumbnails } from '../../../support/grid-thumbnails.js';

const later = (ms = 20) => new Promise((r) => setTimeout(r, ms));

function context(messaging = true) {
  const posted: unknown[] = [];
  let listener: ((m: unknown) => void) | undefined;
  const ctx = messaging ? {
    postMessage: (m: unknown) => { posted.push(m); },
    onDidReceiveMessage: (l: (m: unknown) => void) => { listener = l; return { dispose() {} }; },
  } : {};
  return { ctx, posted, reply: (m: unknown) => listener?.(m) };
}

function output(dom: JSDOM) {
  return dom.window.document.body.appendChild(dom.window.document.createElement('div')) as unknown as HTMLElement;
}

const item = (id: string, value: unknown): OutputItem => ({ id, mime: 'application/vnd.attention-lens.v1+json', json: () => value });

test('Open in Attention Lens asks the host by id; only the reply for that id settles it', async () => {
  const dom = new JSDOM('<!doctype html><html><head></head><body class="vscode-light"></body></html>', { pretendToBeVisual: true });
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const c = context();
  const renderer = activate(c.ctx);
  const el = output(dom);
  const { payload } = randomPayload(1, 2, 4);
  renderer.renderOutputItem(item('out-1', payload), el);
  await later();
  assert.deepEqual(c.posted, [{ type: 'painted', view: 'model', items: 2, drawMs: (c.posted[0] as { drawMs: number }).drawMs }]);
  el.querySelector<HTMLButtonElement>('button.al-notebook-open')!.click();
  assert.deepEqual(c.posted[1], { type: 'open', id: 1, payload });
  const status = el.querySelector('.al-notebook-status')!;
  c.reply({ type: 'opened', id: 7, file: 'forged.safetensors' });
  c.reply({ type: 'opened', id: 1 });
  await later();
  assert.equal(status.textContent, 'Opening…', 'a reply for another id, or a malformed one, settles nothing');
  c.reply({ type: 'opened', id: 1, file: 'attention-abc.safetensors' });
  await later();
  assert.equal(status.textContent, 'Opened in Attention Lens, beside the notebook');
  renderer.disposeOutputItem('out-1');
  assert.equal(el.children.length, 0);
});

test('without messaging: no button; an unreadable output is one line; a re-render replaces the old', async () => {
  const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { pretendToBeVisual: true });
  const renderer = activate(context(false).ctx);
  const el = output(dom);
  const { payload } = randomPayload(1, 1, 3);
  renderer.renderOutputItem(item('a', payload), el);
  await later();
  assert.equal(el.querySelector('button'), el.querySelector('.toolbar button'), 'only the toolbar\'s buttons, not Open');
  assert.equal(el.querySelector('button.al-notebook-open'), null);
  renderer.renderOutputItem({ id: 'a', mime: 'x', json: () => { throw new SyntaxError('Unexpected end of JSON input'); } }, el);
  assert.equal(el.textContent, 'Attention Lens cannot show this output: its JSON cannot be read (Unexpected end of JSON input)');
  renderer.disposeOutputItem();
});

test('the example notebook\'s saved output (examples/attention-in-a-notebook.ipynb) is drawn: 2 × 4 heads', async () => {
  const nb = JSON.parse(readFileSync(join(ROOT, 'examples', 'attention-in-a-notebook.ipynb'), 'utf8')) as { cells: { outputs?: { data: Record<string, unknown> }[] }[] };
  const data = nb.cells.flatMap((c) => c.outputs ?? [])[0].data;
  assert.deepEqual(Object.keys(data).sort(), ['application/vnd.attention-lens.v1+json', 'text/html', 'text/plain']);
  const dom = new JSDOM('<!doctype html><html><head></head><body class="vscode-dark"></body></html>', { pretendToBeVisual: true });
  const renderer = activate(context().ctx);
  const el = output(dom);
  renderer.renderOutputItem(item('example', data['application/vnd.attention-lens.v1+json']), el);
  await later();
  assert.equal(gridThumbnails(el).length, 8, 'every head painted as its thumbnail');
  assert.deepEqual(Array.from(el.querySelectorAll('.al-notebook-root svg text'), (t) => t.textContent).filter((t) => t?.startsWith('2 layer')).length, 1);
  renderer.disposeOutputItem();
});
