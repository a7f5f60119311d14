// A model spec's session on the web (model-run/web-runs.ts: the desktop's RunSession with the web's
// places and lanes), in the vscode stand-in with no Worker: the induction example runs from its folder
// read through workspace.fs, on the host's thread, and the views get the desktop's next tokens; a
// model named by its Hugging Face id is a one-line problem on "model" and in the view; a head saved as
// a spec is written through workspace.fs with the desktop's bytes, and never over a file that is there.
import '../../../../support/vscode/register.js';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { RunSession, type RunContext } from '../../../../../src/host/checkpoint-run/session.js';
import { webRunPlaces } from '../../../../../src/host/web/model-run/web-runs.js';
import { webRunLanes } from '../../../../../src/host/web/model-run/run-lanes.js';
import type { AnalysisCache } from '../../../../../src/host/analysis/cache.js';
import { proposedDialogs } from '../../../../../src/host/dialogs.js';
import { realEngine } from '../../../../../src/host/checkpoint-run/engine.js';
import { NOT_ON_THE_WEB } from '../../../../../src/host/web/not-on-web-text.js';
import { asVscode, languages, standIn, Uri, ViewColumn, window } from '../../../../support/vscode/index.js';
import { until } from '../../../../support/host-fixture.js';
import { ROOT } from '../../../../support/paths.js';
import { tempDir } from '../../../../support/temp-dir.js';
import { writeLensFiles } from '../../../../../src/host/checkpoint-run/lens-files.js';

const EXAMPLES = join(ROOT, 'examples');

beforeEach(() => standIn.reset());

function webSession(spec: Uri, warnings: string[] = [], places = webRunPlaces()) {
  const diagnostics = languages.createDiagnosticCollection('attention-lens-runs');
  const context: RunContext = {
    extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)),
    globalStorageUri: asVscode<vscode.Uri>(Uri.parse('vscode-userdata:/storage')),
    cache: asVscode<AnalysisCache>({ get: () => Promise.reject(new Error('the analysis is not asked here')) }),
    // No Worker here: the host's thread runs the model.
    workers: webRunLanes(asVscode<vscode.Uri>(Uri.file(ROOT)), (line) => warnings.push(line), false),
    places,
    dialogs: proposedDialogs,
    diagnostics: asVscode<vscode.DiagnosticCollection>(diagnostics),
    showSpec: () => Promise.resolve(),
  };
  const panel = window.createWebviewPanel('attentionLens.modelRun', 'Run', ViewColumn.Beside, {});
  const session = new RunSession(context, asVscode<vscode.Uri>(spec), asVscode<vscode.WebviewPanel>(panel), () => {});
  panel.webview.fromPage({ type: 'ready' });
  return { session, panel, diagnostics };
}

test('the induction example runs on the host\'s thread from workspace.fs, with the desktop\'s next tokens', async () => {
  standIn.documents.state.folders = [{ uri: Uri.file(EXAMPLES), name: 'examples', index: 0 }];
  const warnings: string[] = [];
  const { session, panel } = webSession(Uri.file(join(EXAMPLES, 'induction-gpt2.attn.json')), warnings);
  try {
    await until('the run', () => (session.info().runs ?? 0) >= 1 || session.info().runError !== undefined, 30_000);
    assert.equal(session.info().runError, undefined);
    const engine = realEngine();
    const disk = engine.run(join(EXAMPLES, 'models', 'induction-gpt2'), 'The cat sat on the mat. The cat');
    engine.close();
    assert.deepEqual(session.info().next, disk.next.map((t) => t.token));
    assert.equal(session.info().next?.[0], ' sat');
    await until('the run message', () => panel.webview.receivedOf('run').length > 0, 30_000);
    assert.deepEqual((panel.webview.receivedOf('run')[0] as { next: unknown }).next, disk.next);
    assert.deepEqual(warnings, []);
  } finally {
    session.dispose();
    panel.dispose();
  }
});

test('a model named by its Hugging Face id: one line on "model" and in the view', async () => {
  standIn.documents.state.folders = [{ uri: Uri.file(EXAMPLES), name: 'examples', index: 0 }];
  const spec = Uri.file(join(EXAMPLES, 'run-gpt2-web.attn.json'));
  standIn.documents.open(spec, JSON.stringify({ model: 'gpt2', text: 'The cat' }));
  const { session, panel, diagnostics } = webSession(spec);
  try {
    await until('the refusal', () => session.info().runError !== undefined, 30_000);
    const line = `no folder "gpt2" beside the spec, and a model named by its Hugging Face id is read from the Hugging Face cache on a disk, which ${NOT_ON_THE_WEB}`;
    assert.equal(session.info().runError, line);
    const [problem] = diagnostics.get(spec) ?? [];
    assert.equal(problem?.message, `model: ${line}`);
    await until('the view\'s error', () => session.info().state === 'error');
    assert.equal(session.info().error, line);
  } finally {
    session.dispose();
    panel.dispose();
  }
});

test('a model\'s place that cannot be looked for (its lookup throws) is a problem in the view, not a view left loading', async () => {
  standIn.documents.state.folders = [{ uri: Uri.file(EXAMPLES), name: 'examples', index: 0 }];
  const spec = Uri.file(join(EXAMPLES, 'run-throws-web.attn.json'));
  standIn.documents.open(spec, JSON.stringify({ model: 'models/induction-gpt2', text: 'The cat' }));
  const places = { ...webRunPlaces(), locate: () => Promise.reject(new Error('EACCES (FileSystemError)')) };
  const { session, panel } = webSession(spec, [], places);
  try {
    await until('the view\'s error', () => session.info().state === 'error', 30_000);
    assert.equal(session.info().error, 'the model could not be looked for: EACCES (FileSystemError)');
  } finally {
    session.dispose();
    panel.dispose();
  }
});

test('Save Head as Spec writes the desktop\'s spec and tensor file through workspace.fs, and never over a file there', async () => {
  const dir = tempDir('attn-web-lens-');
  cpSync(join(EXAMPLES, 'models', 'induction-gpt2'), join(dir, 'models', 'induction-gpt2'), { recursive: true });
  cpSync(join(EXAMPLES, 'induction-gpt2.attn.json'), join(dir, 'induction-gpt2.attn.json'));
  standIn.documents.state.folders = [{ uri: Uri.file(dir), name: 'w', index: 0 }];
  const { session, panel } = webSession(Uri.file(join(dir, 'induction-gpt2.attn.json')));
  try {
    await until('the run', () => (session.info().runs ?? 0) >= 1 || session.info().runError !== undefined, 30_000);
    assert.equal(session.info().runError, undefined);
    // The dialog proposes a fresh name beside the spec, and (proposedDialogs) takes it.
    await session.saveShownHead();
    const spec = join(dir, 'induction-gpt2-layer1-head1.attn.json'), tensor = join(dir, 'induction-gpt2-layer1-head1.safetensors');
    assert.deepEqual(standIn.windows.state.messages.filter((m) => m.severity === 'error'), []);
    assert.ok(existsSync(spec) && existsSync(tensor));
    // The desktop's writer on the same head (layer 1 head 1, the last token) of the same text.
    const engine = realEngine();
    engine.run(join(dir, 'models', 'induction-gpt2'), 'The cat sat on the mat. The cat');
    const desktop = tempDir('attn-desktop-lens-');
    writeLensFiles(join(desktop, 'induction-gpt2-layer1-head1.attn.json'), engine.lens(0, 0), { model: 'models/induction-gpt2', modelFolder: join(dir, 'models', 'induction-gpt2'), query: 8 });
    engine.close();
    assert.equal(readFileSync(spec, 'utf8'), readFileSync(join(desktop, 'induction-gpt2-layer1-head1.attn.json'), 'utf8'));
    assert.deepEqual(readFileSync(tensor), readFileSync(join(desktop, 'induction-gpt2-layer1-head1.safetensors')));
    // A name that is taken is not written over: the next proposal is -2; a taken name chosen is one error.
    await session.saveShownHead();
    assert.ok(existsSync(join(dir, 'induction-gpt2-layer1-head1-2.attn.json')));
    writeFileSync(join(dir, 'mine.safetensors'), 'not a lens');
    const context = (session as unknown as { context: RunContext }).context;
    context.dialogs = { ...proposedDialogs, save: () => Promise.resolve(asVscode<vscode.Uri>(Uri.file(join(dir, 'mine.attn.json')))) };
    await session.saveShownHead();
    assert.equal(readFileSync(join(dir, 'mine.safetensors'), 'utf8'), 'not a lens');
    assert.ok(!existsSync(join(dir, 'mine.attn.json')));
    assert.deepEqual(standIn.windows.state.messages.filter((m) => m.severity === 'error').map((m) => m.message),
      ['Attention Lens: mine.safetensors is there, and VS Code for the Web writes a lens only to new names: choose another name']);
  } finally {
    session.dispose();
    panel.dispose();
  }
});
