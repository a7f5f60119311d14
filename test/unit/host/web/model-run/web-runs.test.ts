// A model spec's session on the web (model-run/web-runs.ts: the desktop's RunSession with the web's
// places and lanes), in the vscode stand-in with no Worker: the induction example runs from its folder
// read through workspace.fs, on the host's thread, and the views get the desktop's next tokens; a
// model named by its Hugging Face id is a one-line problem on "model" and in the view; saving a head
// says in one line that it needs a disk.
import '../../../../support/vscode/register.js';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { RunSession, type RunContext } from '../../../../../src/host/checkpoint-run/session.js';
import { webRunPlaces, SAVE_HEAD_ON_THE_WEB } from '../../../../../src/host/web/model-run/web-runs.js';
import { webRunLanes } from '../../../../../src/host/web/model-run/run-lanes.js';
import type { AnalysisCache } from '../../../../../src/host/analysis/cache.js';
import { proposedDialogs } from '../../../../../src/host/dialogs.js';
import { realEngine } from '../../../../../src/host/checkpoint-run/engine.js';
import { NOT_ON_THE_WEB } from '../../../../../src/host/web/not-on-web-text.js';
import { asVscode, languages, standIn, Uri, ViewColumn, window } from '../../../../support/vscode/index.js';
import { until } from '../../../../support/host-fixture.js';
import { ROOT } from '../../../../support/paths.js';

const EXAMPLES = join(ROOT, 'examples');

beforeEach(() => standIn.reset());

function webSession(spec: Uri, warnings: string[] = []) {
  const diagnostics = languages.createDiagnosticCollection('attention-lens-runs');
  const context: RunContext = {
    extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)),
    globalStorageUri: asVscode<vscode.Uri>(Uri.parse('vscode-userdata:/storage')),
    cache: asVscode<AnalysisCache>({ get: () => Promise.reject(new Error('the analysis is not asked here')) }),
    // No Worker here: the host's thread runs the model.
    workers: webRunLanes(asVscode<vscode.Uri>(Uri.file(ROOT)), (line) => warnings.push(line), false),
    places: webRunPlaces(),
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
    // Save Head as Spec: one line, where the user meets it.
    await session.saveShownHead();
    assert.deepEqual(standIn.windows.state.messages.map((m) => m.message), [`Attention Lens: ${SAVE_HEAD_ON_THE_WEB}, which ${NOT_ON_THE_WEB}.`]);
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
