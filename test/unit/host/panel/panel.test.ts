// One Attention panel (src/host/panel/panel.ts) in the vscode stand-in, the test speaking for its page:
// it posts nothing until the page says 'ready', then the lock and the spec's result (the real analysis,
// the apple-watch lens's 136 and 64); a message outside the protocol, or about another document, changes
// nothing; a page that comes back is sent its content again; an edit becomes the next version (its
// problems at their line and column); an export is written beside the spec; a 'need' gets the
// linear-algebra numbers; a problem's position is selected in the spec's editor.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { AttentionPanel, PANEL_VIEW_TYPE, type PanelContext } from '../../../../src/host/panel/panel.js';
import { panelOptions } from '../../../../src/host/panel/webview.js';
import { decodeAttention, type WireAttention } from '../../../../src/core/result/wire.js';
import { at } from '../../../../src/core/result/attention-data.js';
import { asVscode, standIn, Uri, ViewColumn, window, workspace, type WebviewPanel } from '../../../support/vscode/index.js';
import { countingCache, examplesInTemp, settle, until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { npyFloat32 } from '../../../support/tensor-files.js';
import { referencedFile } from '../../../../src/host/panel/reference.js';

const EXTENSION = Uri.file(ROOT);

beforeEach(() => standIn.reset());

/** A panel on `name` in a fresh folder that also holds `beside` (copied before the panel reads anything). */
function open(name = 'apple-watch-lens.attn.json', ...beside: string[]) {
  const { folder, uris: [uri] } = examplesInTemp(name, ...beside);
  const { cache, analyst } = countingCache();
  const context: PanelContext = { extensionUri: asVscode(EXTENSION), cache, timings: { activateMs: 0 }, referencedFile };
  const webviewPanel = window.createWebviewPanel(PANEL_VIEW_TYPE, 'Attention', ViewColumn.Two, panelOptions(asVscode(EXTENSION)));
  const panel = new AttentionPanel(asVscode<vscode.WebviewPanel>(webviewPanel), asVscode(uri), context);
  return { folder, uri, panel, page: webviewPanel.webview, webviewPanel, analyst, context };
}

const types = (page: { received: unknown[] }) => page.received.map((m) => (m as { type: string }).type);

test('after the page says ready it gets the lock and the render of the spec: watch → apple 136, watch → watch 64 in "tech lens"', async () => {
  const { uri, panel, page, webviewPanel, analyst } = open();
  assert.equal(webviewPanel.title, 'Attention: apple-watch-lens.attn.json');
  assert.ok(page.html.includes(`src="https://file%2B.vscode-resource.vscode-cdn.net${ROOT}/dist/webview.js"`), 'the script is served from dist/ through asWebviewUri');
  await until('the first version analysed', () => panel.info().version === 1);
  assert.deepEqual(page.received, [], 'nothing is posted to a page that has not said ready');
  page.fromPage({ type: 'ready' });
  assert.deepEqual(types(page), ['lock', 'render']);
  assert.deepEqual(page.received[0], { type: 'lock', locked: false });
  const render = page.received[1] as { documentUri: string; fileName: string; version: number; result: WireAttention; buffer: ArrayBuffer };
  assert.equal(render.documentUri, uri.toString());
  assert.equal(render.fileName, 'apple-watch-lens.attn.json');
  assert.equal(render.version, 1);
  const data = decodeAttention(render.result, render.buffer);
  assert.deepEqual(data.inputs[0].tokens, ['i', 'love', 'apple', 'watch']);
  const lens = data.inputs[0].heads[1];
  assert.equal(at(lens.scores, 3, 2), 136);
  assert.equal(at(lens.scores, 3, 3), 64);
  assert.equal(analyst.reads, 1);
  assert.equal(panel.info().state, 'loading', 'not ready until the page painted');
  page.fromPage({ type: 'painted', documentUri: uri.toString(), version: 1, view: 'matrix', drawMs: 4 });
  assert.deepEqual(panel.info(), { documentUri: uri.toString(), version: 1, state: 'ready', tokens: ['i', 'love', 'apple', 'watch'], view: 'matrix', locked: false });
  panel.dispose();
});

test('a forged message, or one about another document, changes nothing and is logged', async () => {
  const { uri, folder, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const before = { info: panel.info(), received: page.received.length };
  const other = 'file:///elsewhere/other.attn.json';
  page.fromPage({ type: 'painted', documentUri: uri.toString(), version: 'one', view: 'matrix', drawMs: 1 });
  page.fromPage({ type: 'run', command: 'rm -rf /' });
  page.fromPage({ type: 'painted', documentUri: other, version: 1, view: 'quadrant', drawMs: 1 });
  page.fromPage({ type: 'state', state: { documentUri: other, view: 'steps', head: 0, input: 1, token: -1 } });
  page.fromPage({ type: 'exportResult', requestId: 7, format: 'svg', data: '<svg></svg>' });
  await settle();
  assert.deepEqual(panel.info(), before.info, 'view, state and tokens as they were');
  assert.equal(page.received.length, before.received, 'nothing posted back');
  assert.deepEqual(readdirSync(folder), ['apple-watch-lens.attn.json'], 'no file written for an export never asked');
  const log = standIn.windows.state.log;
  assert.equal(log.filter((l) => l.level === 'warn' && /not in the protocol/.test(l.text)).length, 2);
  assert.equal(log.filter((l) => /ignored a '(painted|state)' message for file:\/\/\/elsewhere/.test(l.text)).length, 1, 'the state names its document inside: dropped without a word');
  assert.ok(log.some((l) => l.level === 'warn' && /unknown request 7/.test(l.text)));
  panel.dispose();
});

test('a page torn down while hidden is sent the lock and the content again when it comes back', async () => {
  const { panel, page, webviewPanel } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const first = page.received[1];
  webviewPanel.hide();
  panel.setLocked(true);
  assert.equal(webviewPanel.title, '[Locked] Attention: apple-watch-lens.attn.json');
  assert.deepEqual(types(page), ['lock', 'render'], 'nothing reaches a hidden page');
  webviewPanel.show();
  page.fromPage({ type: 'ready' });
  assert.deepEqual(types(page), ['lock', 'render', 'lock', 'render']);
  assert.deepEqual(page.received[2], { type: 'lock', locked: true });
  assert.deepEqual(page.received[3], first, 'the same render as before');
  panel.dispose();
});

test('an edit is shown as the next version; a broken one lists its problem at its line and column', async () => {
  const { uri, panel, page, analyst } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const document = await workspace.openTextDocument(uri);
  const broken = document.getText().replace('"love", "apple"', '"love", "pear"');
  standIn.documents.type(document, broken);
  panel.documentChanged(document.version);
  await until('the problems of version 2', () => page.receivedOf('problems').length === 1);
  const [problems] = page.receivedOf('problems') as { version: number; problems: { severity: string; path: string; line: number; column: number; message: string }[] }[];
  assert.equal(problems.version, 2);
  const offset = broken.indexOf('"pear"');
  const line = broken.slice(0, offset).split('\n').length;
  const column = offset - broken.lastIndexOf('\n', offset - 1);
  assert.deepEqual(problems.problems.map((p) => [p.severity, p.path, p.line, p.column]), [['error', 'inputs[0].tokens[2]', line, column]]);
  assert.match(problems.problems[0].message, /unknown token "pear"/);
  assert.equal(panel.info().state, 'error');
  standIn.documents.type(document, broken.replace('"pear"', '"orange"'));
  panel.documentChanged(document.version);
  await until('the render of version 3', () => page.receivedOf('render').some((m) => m.version === 3));
  const render = page.receivedOf('render').find((m) => m.version === 3)!;
  assert.deepEqual(decodeAttention(render.result, render.buffer).inputs[0].tokens, ['i', 'love', 'orange', 'watch']);
  assert.equal(analyst.reads, 3, 'one analysis per version');
  panel.dispose();
});

test('typing is gathered: an edit at once after another replaces it before it is read, and only the last version is analysed', async () => {
  const { uri, panel, page, analyst, context } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const document = await workspace.openTextDocument(uri);
  const text = document.getText();
  standIn.documents.type(document, text.replace('"love", "apple"', '"love", "pear"'));
  panel.documentChanged(document.version); // one edit after a quiet spell: to be read at once...
  standIn.documents.type(document, text.replace('"love", "apple"', '"love", "orange"'));
  panel.documentChanged(document.version); // ...and another came in the same moment (a paste and its formatting): gathered, still at once
  await until('the render of version 3', () => page.receivedOf('render').some((m) => m.version === 3));
  assert.equal(page.receivedOf('problems').length, 0, 'version 2 (an unknown token) was never shown');
  assert.equal(analyst.reads, 2, 'versions 1 and 3 analysed, not 2');
  assert.ok(context.timings.lastWaitMs! < context.timings.lastUpdateDelayMs!, `read after ${context.timings.lastWaitMs} ms, not put back by the ${context.timings.lastUpdateDelayMs} ms debounce`);
  panel.dispose();
});

test('Export SVG writes what the page sends beside the spec and says so; the light setting asks for a light picture', async () => {
  const { folder, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  standIn.documents.state.settings.set('attentionLens.exportBackground', 'light');
  await panel.requestExport('svg');
  const [request] = page.receivedOf('exportRequest');
  assert.equal(request.format, 'svg');
  assert.equal(request.theme, 'light');
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>136</text></svg>';
  page.fromPage({ type: 'exportResult', requestId: request.requestId, format: 'svg', data: svg });
  const file = join(folder, 'apple-watch-lens.arcs.svg');
  await until('the message', () => standIn.windows.state.messages.length > 0);
  assert.equal(readFileSync(file, 'utf8'), svg);
  assert.deepEqual(standIn.windows.state.messages, [{ severity: 'information', message: `Attention Lens: exported ${file}` }]);
  panel.dispose();
});

test('an export answered in another format, or with bytes that are not the format, writes nothing', async () => {
  const { folder, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  await panel.requestExport('svg');
  const [asked] = page.receivedOf('exportRequest');
  assert.equal(asked.theme, undefined, 'the picture as shown unless the setting says light');
  page.fromPage({ type: 'exportResult', requestId: asked.requestId, format: 'png', data: 'data:image/png;base64,iVBORw0KGgo=' });
  await panel.requestExport('png');
  const png = page.receivedOf('exportRequest')[1];
  page.fromPage({ type: 'exportResult', requestId: png.requestId, format: 'png', data: 'data:image/png;base64,PHN2Zz4=' });
  await until('the refusal', () => standIn.windows.state.messages.length === 1);
  await settle();
  assert.deepEqual(readdirSync(folder), ['apple-watch-lens.attn.json']);
  assert.ok(standIn.windows.state.log.some((l) => new RegExp(`ignored an export result in png for request ${asked.requestId}: another format was asked`).test(l.text)));
  assert.deepEqual(standIn.windows.state.messages, [{ severity: 'error', message: 'Attention Lens: export failed: the panel sent data that is not a PNG.' }]);
  panel.dispose();
});

test("a view's 'need' gets the linear-algebra numbers of the version shown, and none for another version", async () => {
  const { uri, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  page.fromPage({ type: 'need', documentUri: uri.toString(), version: 2, what: 'linalg' });
  page.fromPage({ type: 'need', documentUri: uri.toString(), version: 1, what: 'linalg' });
  await until('the linalg message', () => page.receivedOf('linalg').length === 1);
  await settle();
  const [linalg] = page.receivedOf('linalg') as { version: number; documentUri: string; linalg: unknown }[];
  assert.equal(page.receivedOf('linalg').length, 1, 'nothing for a version not shown');
  assert.equal(linalg.version, 1);
  assert.equal(linalg.documentUri, uri.toString());
  assert.equal(typeof linalg.linalg, 'object');
  panel.dispose();
});

test("clicking a problem's line and column selects it in the spec's editor, which takes the focus", async () => {
  const { uri, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'reveal', documentUri: uri.toString(), target: { kind: 'position', line: 3, column: 5 } });
  await until('an editor on the spec', () => window.activeTextEditor !== undefined);
  const editor = window.activeTextEditor!;
  assert.equal(editor.document.uri.toString(), uri.toString());
  assert.deepEqual([editor.selection!.start.line, editor.selection!.start.character], [2, 4]);
  assert.equal(editor.viewColumn, ViewColumn.One, 'beside the panel (in column two)');
  assert.equal(editor.revealed.length, 1);
  panel.dispose();
});

test('closing the page disposes the panel once: it says so, and a pending export rejects without a warning', async () => {
  const { panel, webviewPanel } = open();
  let disposed = 0;
  panel.onDidDispose(() => disposed++);
  await until('the first version analysed', () => panel.info().version === 1);
  void panel.requestExport('svg');
  webviewPanel.dispose();
  panel.dispose();
  await settle();
  assert.equal(disposed, 1);
  assert.deepEqual(standIn.windows.state.messages, []);
  assert.equal(standIn.windows.state.panels.includes(webviewPanel as WebviewPanel), false);
});

test("the render carries the spec's story: its description, its open, and Next with the next spec's title; Next opens only that spec", async () => {
  // The next spec is there before the panel looks for it (copied after, it raced the first analysis).
  const { uri, panel, page, context, folder } = open('apple-watch-raw.attn.json', 'apple-watch-lens.attn.json');
  const asked: string[] = [];
  context.openNext = async (next) => { asked.push(next.fsPath); };
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const [render] = page.receivedOf('render') as { story?: { description?: string; open?: unknown; next?: { file: string; title: string } } }[];
  assert.match(render.story?.description ?? '', /^Step 1: raw embeddings/);
  assert.deepEqual(render.story?.open, { view: 'matrix', token: 3, matrix: 'weights' });
  assert.deepEqual(render.story?.next, { file: 'apple-watch-lens.attn.json', title: 'I love Apple watch: through learned W_Q and W_K (136 vs 64)' });
  page.fromPage({ type: 'openNext', documentUri: uri.toString(), file: 'apple-watch-geometry.attn.json' });
  page.fromPage({ type: 'openNext', documentUri: uri.toString(), file: '../apple-watch-lens.attn.json' });
  page.fromPage({ type: 'openNext', documentUri: uri.toString(), file: 'apple-watch-lens.attn.json' });
  await settle();
  assert.deepEqual(asked, [join(folder, 'apple-watch-lens.attn.json')], 'only the spec the panel offered');
  assert.ok(standIn.windows.state.log.some((l) => /ignored an 'openNext' for apple-watch-geometry\.attn\.json/.test(l.text)));
  panel.dispose();
});

test('a "next" that is not beside the spec is left out of the render', async () => {
  const { panel, page } = open('apple-watch-raw.attn.json');
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const [render] = page.receivedOf('render') as { story?: { next?: unknown; description?: string } }[];
  assert.equal(render.story?.next, undefined);
  assert.ok(render.story?.description, 'the description still travels');
  assert.ok(standIn.windows.state.log.some((l) => /is not beside it/.test(l.text)));
  panel.dispose();
});

test('Export asks where to write first, proposing <spec>.<view>.svg beside the spec; cancelling writes nothing and asks the page nothing', async () => {
  const { folder, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  standIn.windows.state.save = () => undefined;
  await panel.requestExport('svg');
  assert.equal(standIn.windows.state.saveDialogs[0].defaultUri?.fsPath, join(folder, 'apple-watch-lens.arcs.svg'));
  assert.deepEqual(page.receivedOf('exportRequest'), []);
  const elsewhere = join(folder, 'picked.svg');
  standIn.windows.state.save = () => Uri.file(elsewhere);
  await panel.requestExport('svg');
  const [request] = page.receivedOf('exportRequest');
  page.fromPage({ type: 'exportResult', requestId: request.requestId, format: 'svg', data: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' });
  await until('the message', () => standIn.windows.state.messages.length > 0);
  assert.deepEqual(readdirSync(folder).sort(), ['apple-watch-lens.attn.json', 'picked.svg']);
  panel.dispose();
});

test('a model spec is said to be drawn in the model editor, not listed as a problem; its button opens that editor', async () => {
  const { uri, panel, page, context } = open('induction-gpt2.attn.json');
  const runs: { spec: string; focus: boolean }[] = [];
  context.runModel = (spec, show) => { runs.push({ spec: spec.toString(), focus: show.focus }); };
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  const shown = page.received.find((m) => (m as { type: string }).type === 'problems') as
    { problems: unknown[]; elsewhere?: { message: string; action: string } } | undefined;
  assert.ok(shown, 'the page is told about the spec');
  assert.deepEqual(shown.problems, [], 'Problems has nothing for this spec, and neither has the panel');
  assert.match(shown.elsewhere?.message ?? '', /model spec: it runs models\/induction-gpt2 \(line 4, column 12\).*model editor/);
  assert.equal(shown.elsewhere?.action, 'Open the model editor');
  assert.deepEqual(runs, [{ spec: uri.toString(), focus: false }], 'the run opens beside the panel once');
  page.fromPage({ type: 'openElsewhere', documentUri: uri.toString() });
  assert.deepEqual(runs.at(-1), { spec: uri.toString(), focus: true }, 'the button opens the model editor, focused');
  panel.dispose();
});

test("a spec showing a file's attention: the model editor opens beside the spec; a refusal is logged, and a file since gone is said in one line", async () => {
  const { folder } = examplesInTemp('apple-watch-lens.attn.json');
  writeFileSync(join(folder, 'run.npy'), npyFloat32([2, 2], [1, 0, 0.5, 0.5]));
  const uri = Uri.file(join(folder, 'ref.attn.json'));
  writeFileSync(uri.fsPath, JSON.stringify({ attention: { file: 'run.npy' } }));
  const { cache } = countingCache();
  const asked: { file: string; show: unknown }[] = [];
  const context: PanelContext = {
    extensionUri: asVscode(EXTENSION), cache, timings: { activateMs: 0 }, referencedFile,
    // VS Code's 'vscode.openWith' rejects when the editor cannot be opened.
    openModel: (file, _open, show) => { asked.push({ file: file.fsPath, show }); return Promise.reject(new Error('the editor could not be opened')); },
  };
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => { unhandled.push(reason); };
  process.on('unhandledRejection', onUnhandled);
  const webviewPanel = window.createWebviewPanel(PANEL_VIEW_TYPE, 'Attention', ViewColumn.Two, panelOptions(asVscode(EXTENSION)));
  const panel = new AttentionPanel(asVscode<vscode.WebviewPanel>(webviewPanel), asVscode(uri), context);
  try {
    await until('the first version analysed', () => panel.info().version === 1);
    webviewPanel.webview.fromPage({ type: 'ready' });
    await until('the opening refused, and logged', () => standIn.windows.state.log.some((l) => l.level === 'warn' && l.text.includes('could not open the model editor')));
    assert.deepEqual(asked, [{ file: join(folder, 'run.npy'), show: { focus: false, beside: asVscode(uri) } }]);
    assert.equal(standIn.windows.state.messages.length, 0, 'the file is there: nothing to tell the user');
    rmSync(join(folder, 'run.npy'));
    webviewPanel.webview.fromPage({ type: 'openElsewhere', documentUri: uri.toString() });
    await until('the user told', () => standIn.windows.state.messages.length === 1);
    assert.deepEqual(asked.at(-1)?.show, { focus: true, beside: asVscode(uri) });
    const [message] = standIn.windows.state.messages;
    assert.equal(message.severity, 'error');
    assert.match(message.message, /run\.npy is no longer there/);
    assert.doesNotMatch(message.message, /\n/);
    // Both rejections were handled by the time the user was told: a dropped one is reported at once.
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    panel.dispose();
  }
});

test("a spec the panel draws itself ignores an 'openElsewhere' and says why", async () => {
  const { uri, panel, page } = open();
  await until('the first version analysed', () => panel.info().version === 1);
  page.fromPage({ type: 'ready' });
  page.fromPage({ type: 'openElsewhere', documentUri: uri.toString() });
  assert.ok(standIn.windows.state.log.some((l) => l.level === 'warn' && /ignored an 'openElsewhere'.*drawn in this panel/.test(l.text)));
  panel.dispose();
});
