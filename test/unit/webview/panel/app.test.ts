// The panel shell on jsdom: messages in, messages out, the states it shows, keyboard and export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { App, type VsCodeApi } from '../../../../webview/panel/app.js';
import { analyze } from '../../../../src/core/index.js';
import type { WebviewMessage } from '../../../../src/protocol/panel.js';
import { exampleText } from '../../../support/specs.js';
import { exportBytes } from '../../../../src/host/panel/export-file.js';
import { isHostMessage } from '../../../../src/protocol/host-message-check.js';
import { encodeAttention } from '../../../../src/core/result/wire.js';

const URI = 'file:///w/apple-watch-lens.attn.json';

function setup(saved?: unknown, bodyClass = 'vscode-light') {
  const dom = new JSDOM(`<!doctype html><html><body class="${bodyClass}">
    <main id="attention-root" data-state="loading" data-document-uri="${URI}" data-file-name="apple-watch-lens.attn.json"></main>
    <div id="attention-tooltip" role="tooltip"></div></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  const posted: WebviewMessage[] = [];
  let state: unknown = saved;
  const api: VsCodeApi = { postMessage: (m) => posted.push(m), getState: () => state, setState: (s) => { state = s; } };
  const root = doc.getElementById('attention-root')!;
  const app = new App(root, doc.getElementById('attention-tooltip')!, api);
  app.start();
  return { dom, doc, root, app, posted, state: () => state };
}

const wire = encodeAttention(analyze(exampleText('apple-watch-lens.attn.json')).data!);
const json = wire.header;
const render = (version = 1, result: unknown = json) => ({ type: 'render', documentUri: URI, fileName: 'apple-watch-lens.attn.json', version, result, buffer: wire.buffer, warnings: [] });

test('starts in "loading", never blank, and says ready', () => {
  const { root, posted, doc } = setup();
  assert.equal(root.dataset.state, 'loading');
  assert.match(doc.getElementById('attention-status')!.textContent!, /waiting for a spec/i);
  assert.deepEqual(posted[0], { type: 'ready' });
});

test('render: draws, answers "rendered" with the version and view', () => {
  const { root, app, posted, doc } = setup({ view: 'matrix', head: 1, input: 0, token: 3, documentUri: URI });
  app.receive(render(7));
  assert.equal(root.dataset.state, 'ready');
  const rendered = posted.find((m) => m.type === 'painted');
  assert.ok(rendered && rendered.type === 'painted');
  assert.equal(rendered.version, 7);
  assert.equal(rendered.view, 'matrix');
  assert.ok(rendered.drawMs >= 0);
  assert.equal(doc.querySelectorAll('#attention-view rect.cell[data-query][data-key][data-head="1"]').length, 16);
  assert.ok(doc.querySelector('#attention-summary svg'));
});

test('hovering (focusing) a cell fills #attention-tooltip with the dot product, for screen readers too', () => {
  const { app, doc, dom } = setup({ view: 'matrix', head: 1, input: 0, token: 3, documentUri: URI });
  app.receive(render());
  const cell = doc.querySelector('rect.cell[data-query="3"][data-key="2"]')!;
  cell.dispatchEvent(new dom.window.FocusEvent('focusin', { bubbles: true }));
  const tip = doc.getElementById('attention-tooltip')!;
  assert.equal(tip.hidden, false);
  assert.equal(tip.getAttribute('role'), 'tooltip');
  assert.equal(tip.getAttribute('aria-live'), 'polite');
  assert.match(tip.textContent!, /q_watch · k_apple = 10·10 \+ 6·6 = 136/);
  // Row and column highlighted.
  assert.equal(doc.querySelectorAll('g.highlight rect').length, 3);
  // Escape clears.
  cell.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  assert.equal(tip.hidden, true);
});

test('keyboard only: Escape hides a tooltip but keeps the focus; Enter on the second head toggle keeps the focus on it after the redraw', () => {
  const { app, doc, dom } = setup({ view: 'arcs', head: 'all', input: 0, token: 0, documentUri: URI });
  app.receive(render());
  const toggles = () => Array.from(doc.querySelectorAll<SVGGElement>('#attention-view g.head-toggle'));
  const [first, second] = toggles();
  assert.ok(second, 'two heads, two toggles');
  (first as unknown as HTMLElement).focus();
  first.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  assert.equal(doc.activeElement, second, 'the arrow reached the second toggle');
  second.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  assert.equal(doc.activeElement, second, 'Escape left the focus where it was');
  second.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  const now = doc.activeElement as Element;
  assert.ok(now.classList.contains('head-toggle'), `focus is on ${now.tagName}.${now.getAttribute('class')}`);
  assert.equal(now.getAttribute('data-head'), second.getAttribute('data-head'));
  assert.equal(now.getAttribute('tabindex'), '0');
});

test('arrow keys move through the cells (one tab stop)', () => {
  const { app, doc, dom } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI });
  app.receive(render());
  const stops = doc.querySelectorAll('rect.cell[tabindex="0"]');
  assert.equal(stops.length, 1);
  const first = stops[0] as unknown as HTMLElement;
  first.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  const now = doc.querySelector('rect.cell[tabindex="0"]')!;
  assert.equal(now.getAttribute('data-key'), String(Number(first.getAttribute('data-key')) + 1));
});

test('clicking a token posts a reveal of kind "token"', () => {
  const { app, doc, posted, dom } = setup({ view: 'arcs', head: 'all', input: 0, token: 0, documentUri: URI });
  app.receive(render());
  const tok = doc.querySelector('g.token[data-token="2"] text')!;
  tok.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  const reveal = posted.find((m) => m.type === 'reveal');
  assert.deepEqual(reveal, { type: 'reveal', documentUri: URI, target: { kind: 'token', input: 0, token: 2 } });
});

test('clicking a weight of the projection posts a reveal of kind "matrix"', () => {
  const { app, doc, posted, dom } = setup({ view: 'projection', head: 1, input: 0, token: 2, projection: 'wq', documentUri: URI });
  app.receive(render());
  const w = doc.querySelector('rect.w-cell[data-row-index="0"][data-col-index="1"]')!;
  w.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  const reveal = posted.find((m) => m.type === 'reveal');
  assert.deepEqual(reveal, { type: 'reveal', documentUri: URI, target: { kind: 'matrix', role: 'wq', head: 1, row: 0, col: 1 } });
});

test('problems: listed, clickable to their position, the last picture kept dimmed', () => {
  const { app, doc, root, posted, dom } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI });
  app.receive(render(1));
  app.receive({ type: 'problems', documentUri: URI, fileName: 'x', version: 2, problems: [
    { severity: 'error', message: '<img src=x onerror=alert(1)> is not a number', path: 'embeddings.apple[1]', line: 6, column: 20 },
  ] });
  assert.equal(root.dataset.state, 'error');
  const list = doc.getElementById('attention-problems')!;
  assert.equal(list.hidden, false);
  assert.equal(list.querySelectorAll('li').length, 1);
  assert.equal(list.querySelectorAll('img').length, 0, 'the message is text');
  assert.match(list.textContent!, /<img src=x onerror=alert\(1\)> is not a number/);
  assert.ok(doc.querySelector('#attention-view svg'), 'the last good picture stays');
  list.querySelector('button')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'reveal', documentUri: URI, target: { kind: 'position', line: 6, column: 20 } });
  // A good render again: back to ready, the list gone.
  app.receive(render(3));
  assert.equal(root.dataset.state, 'ready');
  assert.equal(list.hidden, true);
});

test('problems before any picture: says so instead of a blank panel', () => {
  const { app, doc, root } = setup();
  app.receive({ type: 'problems', documentUri: URI, fileName: 'x', version: 1, problems: [{ severity: 'error', message: 'bad', path: '', line: 1, column: 1 }] });
  assert.equal(root.dataset.state, 'error');
  assert.match(doc.getElementById('attention-status')!.textContent!, /no picture yet/i);
});

test('switching to another, broken spec clears the old title, controls and summary above its problems', () => {
  const { app, doc } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI });
  app.receive(render(1));
  assert.match(doc.querySelector('.al-title')!.textContent!, /136 vs 64/);
  assert.ok(doc.querySelectorAll('.al-controls select').length > 0);
  app.receive({ type: 'problems', documentUri: 'file:///w/empty.attn.json', fileName: 'empty.attn.json', version: 1,
    problems: [{ severity: 'error', message: 'the file is empty', path: '', line: 1, column: 1 }] });
  assert.equal(doc.querySelector('.al-title')!.textContent, 'Attention Lens');
  assert.equal(doc.querySelectorAll('.al-controls select').length, 0, 'no input/head controls of the previous spec');
  assert.equal(doc.getElementById('attention-summary')!.childElementCount, 0);
  assert.equal(doc.querySelector('#attention-view svg'), null);
  assert.match(doc.getElementById('attention-status')!.textContent!, /no picture yet/i);
});

test('a spec drawn in another editor: the panel says where instead of "fix the problems", with a button to it, and no stale picture', () => {
  const { app, doc, posted, dom } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI });
  app.receive(render(1));
  const model = 'file:///w/induction-gpt2.attn.json';
  app.receive({ type: 'problems', documentUri: model, fileName: 'induction-gpt2.attn.json', version: 1, problems: [],
    elsewhere: { message: 'This is a model spec: drawn in the model editor.', action: 'Open the model editor' } });
  const status = doc.getElementById('attention-status')!;
  assert.equal(status.hidden, false);
  assert.doesNotMatch(status.textContent!, /fix the problems|no picture yet/i);
  assert.match(status.textContent!, /This is a model spec: drawn in the model editor\. Open the model editor/);
  assert.equal(doc.getElementById('attention-problems')!.hidden, true, 'no warning box over nothing');
  assert.equal(doc.querySelector('#attention-view svg'), null, 'no picture of another spec under it');
  status.querySelector('button')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'openElsewhere', documentUri: model });
});

/** Runs `f` with console.warn silenced, returning what was warned. */
function quietly(f: () => void): string[] {
  const warned: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => { warned.push(args.join(' ')); };
  try { f(); } finally { console.warn = warn; }
  return warned;
}

test('malformed messages are not drawn: the panel shows an error that says why, never a silent "loading"', () => {
  const { app, root, posted, doc } = setup();
  const bad = structuredClone(json) as unknown as { inputs: { heads: { q: { cols: number } }[] }[] };
  bad.inputs[0].heads[0].q.cols = 1;
  const status = doc.getElementById('attention-status')!;
  const warned = quietly(() => app.receive(render(1, bad)));
  assert.equal(root.dataset.state, 'error');
  assert.equal(root.dataset.error, 'rejected');
  assert.equal(status.hidden, false);
  assert.match(status.textContent!, /^The result could not be shown: render: input 1 is malformed: inputs\[0\]\.heads\[0\]\.q has 1 columns, expected 3\.$/);
  assert.equal(warned.length, 1, 'still logged for the developer');
  for (const [message, reason] of [
    [{ type: 'render' }, /render: documentUri is not text/],
    ['render', /the message is not an object/],
    [{ type: 'nonsense' }, /unknown message type "nonsense"/],
  ] as const) {
    quietly(() => app.receive(message));
    assert.equal(root.dataset.state, 'error');
    assert.match(status.textContent!, /^The result could not be shown: /);
    assert.match(status.textContent!, reason);
  }
  assert.equal(posted.filter((m) => m.type === 'painted').length, 0);
  assert.equal(doc.querySelector('#attention-view svg'), null, 'nothing drawn from a rejected result');
  // The next good result clears the error.
  app.receive(render(2));
  assert.equal(root.dataset.state, 'ready');
  assert.equal(root.dataset.error, undefined);
  assert.equal(status.hidden, true);
});

test('a rejected result after a good one: the old picture stays, dimmed, under a readable error', () => {
  const { app, root, doc } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI });
  app.receive(render(1));
  const bad = structuredClone(json) as unknown as Record<string, unknown>;
  bad.dModel = 'three';
  quietly(() => app.receive(render(2, bad)));
  assert.equal(root.dataset.state, 'error');
  const status = doc.getElementById('attention-status')!;
  assert.equal(status.hidden, false);
  assert.equal(status.textContent, 'The result could not be shown: render: dModel is not a positive whole number. The last good picture is shown dimmed.');
  assert.ok(doc.querySelector('#attention-view svg'), 'the last good picture is kept, not blanked');
  assert.equal(doc.getElementById('attention-view')!.getAttribute('aria-disabled'), 'true');
  // A hostile reason is shown as text.
  quietly(() => app.receive({ type: '<img src=x onerror=alert(1)>' }));
  assert.equal(root.querySelectorAll('img').length, 0);
  assert.match(status.textContent!, /<img src=x/);
});

test('toolbar: switching the view redraws, saves the state and tells the host', () => {
  const { app, doc, posted, dom, state } = setup({ view: 'arcs', head: 'all', input: 0, token: 0, documentUri: URI });
  app.receive(render());
  const tab = doc.querySelector<HTMLButtonElement>('.al-tab[data-view="steps"]')!;
  tab.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(tab.getAttribute('aria-selected'), 'true');
  assert.ok(doc.querySelector('svg.attention-steps'));
  const st = posted.filter((m) => m.type === 'state').at(-1);
  assert.ok(st && st.type === 'state');
  assert.equal(st.state.view, 'steps');
  assert.equal((state() as { view: string }).view, 'steps');
  // The matrix mode control switches raw scores / scaled / weights.
  doc.querySelector<HTMLButtonElement>('.al-tab[data-view="matrix"]')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  const mode = doc.querySelector<HTMLSelectElement>('select[data-control="mode"]')!;
  mode.value = 'scores';
  mode.dispatchEvent(new dom.window.Event('change'));
  assert.match(doc.querySelector('svg.attention-matrix .title')!.textContent!, /raw scores/);
});

test('export: answers with a standalone SVG', async () => {
  const { app, posted } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI });
  app.receive(render());
  app.receive({ type: 'exportRequest', requestId: 4, format: 'svg' });
  await new Promise((r) => setTimeout(r, 10));
  const res = posted.find((m) => m.type === 'exportResult');
  assert.ok(res && res.type === 'exportResult');
  assert.equal(res.requestId, 4);
  assert.match(res.data, /^<\?xml[^]*<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.ok(!res.data.includes('var(--'));
  assert.ok(res.data.includes('data-query="3"'));
  assert.ok(exportBytes('svg', res.data) instanceof Uint8Array, 'the host accepts what the panel sends');
});

test('export on a light background from a dark panel: drawn again in the light theme, for slides', async () => {
  const { app, posted } = setup({ view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI }, 'vscode-dark');
  app.receive(render());
  const exported = async (requestId: number, theme?: 'light') => {
    app.receive({ type: 'exportRequest', requestId, format: 'svg', ...(theme ? { theme } : {}) });
    await new Promise((r) => setTimeout(r, 10));
    const res = posted.find((m) => m.type === 'exportResult' && m.requestId === requestId);
    assert.ok(res && res.type === 'exportResult');
    return res.data;
  };
  const background = (svg: string) => /<rect[^>]*class="bg"[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? /<rect[^>]*fill="([^"]+)"[^>]*class="bg"/.exec(svg)?.[1];
  assert.equal(background(await exported(1)), '#1e1e1e');
  const light = await exported(2, 'light');
  assert.equal(background(light), '#ffffff');
  assert.ok(light.includes('data-query="3"'), 'the same view, every cell');
});

test('an export request with an unknown theme is refused by the message check', () => {
  assert.notEqual(isHostMessage({ type: 'exportRequest', requestId: 1, format: 'svg', theme: 'neon' }), true);
});

test('lock: shown in the header', () => {
  const { app, doc } = setup();
  app.receive({ type: 'lock', locked: true });
  assert.equal(doc.querySelector<HTMLElement>('.al-lock')!.hidden, false);
  app.receive({ type: 'lock', locked: false });
  assert.equal(doc.querySelector<HTMLElement>('.al-lock')!.hidden, true);
});

test('every view draws in the panel at 300 and 1600 pixels without throwing', () => {
  for (const ex of ['apple-watch-lens.attn.json', 'mouse-two-contexts.attn.json', 'multi-head-causal.attn.json']) {
    const result = analyze(exampleText(ex)).json!;
    for (const view of ['arcs', 'matrix', 'steps', 'quadrant', 'projection', 'compare'] as const) {
      for (const width of [300, 1600]) {
        const { app, posted, doc } = setup({ view, head: 'all', input: 0, token: 0, documentUri: URI });
        // jsdom has no layout: give the view area a width as a browser would.
        Object.defineProperty(doc.getElementById('attention-view')!, 'clientWidth', { value: width });
        app.receive(render(1, result));
        assert.ok(posted.some((m) => m.type === 'painted'), `${ex} ${view} ${width}`);
        const svg = doc.querySelector(`#attention-view svg.attention-${view}`);
        assert.ok(svg, `${ex} ${view} ${width}`);
        assert.ok(Number(svg.getAttribute('width')) >= Math.min(width, 300), `${ex} ${view} ${width}: uses the width`);
      }
    }
  }
});

test('arcs: hovering a token keeps only its arcs; head toggles hide a head', () => {
  const { app, doc, dom, state } = setup({ view: 'arcs', head: 'all', input: 0, token: 0, documentUri: URI });
  app.receive(render());
  const token = doc.querySelector('g.token[data-token="3"]')!;
  token.dispatchEvent(new dom.window.FocusEvent('focusin', { bubbles: true }));
  const arcs = Array.from(doc.querySelectorAll('path.arc'));
  assert.ok(arcs.length > 4);
  for (const a of arcs) {
    const mine = a.getAttribute('data-query') === '3';
    assert.equal(a.getAttribute('visibility'), mine ? 'visible' : 'hidden');
  }
  assert.match(doc.getElementById('attention-tooltip')!.textContent!, /watch \(token 4 of 4\)/);
  // Clicking the legend entry of head 1 hides it.
  doc.querySelector('g.head-toggle[data-head="1"] text')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual((state() as { hiddenHeads: number[] }).hiddenHeads, [1]);
  assert.equal(doc.querySelectorAll('path.arc[data-head="1"]').length, 0);
  assert.ok(doc.querySelectorAll('path.arc[data-head="0"]').length > 0);
});

test('steps: every number is hoverable and says where it comes from', () => {
  const { app, doc, dom } = setup({ view: 'steps', head: 1, input: 0, token: 3, documentUri: URI });
  app.receive(render());
  const nums = Array.from(doc.querySelectorAll('#attention-view text.num'));
  const score = nums.find((t) => t.textContent === '136')!;
  assert.ok(score, 'the score 136 is drawn');
  score.dispatchEvent(new dom.window.FocusEvent('focusin', { bubbles: true }));
  assert.match(doc.getElementById('attention-tooltip')!.textContent!, /q_watch · k_apple = 10·10 \+ 6·6 = 136/);
});

test('summary: the spec\'s own count, unqualified; no full-size line above every view', () => {
  const { app, doc } = setup({ view: 'arcs', head: 'all', input: 0, token: 0, documentUri: URI });
  app.receive(render());
  assert.equal(doc.querySelector('#attention-summary text.summary-item[data-label="full size"]'), null);
  const own = doc.querySelector('#attention-summary text.summary-item[data-label="learnable numbers"]')!;
  assert.equal(Array.from(own.querySelectorAll('tspan'), (t) => t.textContent).join(''), 'learnable numbers 18');
  assert.doesNotMatch(doc.getElementById('attention-summary')!.textContent!, /seed/i);
});

test('another spec rendered in the panel (Next, or the active editor) is the root\'s data-file-name too, where the views read the spec\'s name', () => {
  const { root, app, doc } = setup({ view: 'matrix', head: 0, input: 0, token: -1, documentUri: URI });
  app.receive(render(1));
  assert.equal(root.dataset.fileName, 'apple-watch-lens.attn.json');
  app.receive({ ...render(2), documentUri: 'file:///w/other.attn.json', fileName: 'other.attn.json' });
  assert.equal(root.dataset.fileName, 'other.attn.json', 'it kept the first spec\'s name');
  assert.equal(doc.querySelector('.al-file')!.textContent, 'other.attn.json');
  app.receive({ type: 'problems', documentUri: 'file:///w/broken.attn.json', fileName: 'broken.attn.json', version: 3, problems: [] });
  assert.equal(root.dataset.fileName, 'broken.attn.json');
});
