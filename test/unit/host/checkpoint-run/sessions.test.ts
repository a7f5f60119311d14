// The model spec sessions (src/host/checkpoint-run/sessions.ts) in the vscode stand-in: Show
// Attention on a model spec opens its run beside the spec's editor in a group the window has, never
// a third group when it has two (editor-groups.ts), and reveals it when asked again.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { RUN_VIEW_TYPE, RunSessions } from '../../../../src/host/checkpoint-run/sessions.js';
import { desktopRunPlaces } from '../../../../src/host/checkpoint-run/places/desktop.js';
import type { RunContext } from '../../../../src/host/checkpoint-run/session.js';
import { distScripts, WorkerService } from '../../../../src/host/workers/service.js';
import type { AnalysisCache } from '../../../../src/host/analysis/cache.js';
import { proposedDialogs } from '../../../../src/host/dialogs.js';
import { asVscode, languages, standIn, Uri, window, workspace } from '../../../support/vscode/index.js';
import { withGroups } from '../../../support/editor-groups.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

beforeEach(() => standIn.reset());

test('a model spec in the second of two groups runs in the first, not in a third; asked again, it is revealed', async () => {
  const dir = tempDir('attn-sessions-');
  const spec = Uri.file(join(dir, 'run.attn.json'));
  writeFileSync(spec.fsPath, JSON.stringify({ model: 'gpt2', text: 'The cat' }));
  const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
  const context: RunContext = {
    extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)),
    globalStorageUri: asVscode<vscode.Uri>(Uri.file(join(dir, 'storage'))),
    cache: asVscode<AnalysisCache>({ get: () => Promise.reject(new Error('the analysis is not asked here')) }),
    workers,
    places: desktopRunPlaces,
    dialogs: proposedDialogs,
    diagnostics: asVscode<vscode.DiagnosticCollection>(languages.createDiagnosticCollection('attention-lens-runs')),
    showSpec: () => Promise.resolve(),
    // No run: where the views open is what is looked at.
    readSpec: () => { throw new Error('not read here'); },
  };
  const sessions = new RunSessions(context);
  const restore = withGroups([1, 2]);
  try {
    await window.showTextDocument(await workspace.openTextDocument(spec), { viewColumn: 2 });
    sessions.open(asVscode(spec), { focus: false });
    const runs = () => standIn.windows.state.panels.filter((p) => p.viewType === RUN_VIEW_TYPE);
    assert.deepEqual(runs().map((p) => p.viewColumn), [1]);
    sessions.open(asVscode(spec), { focus: true });
    assert.deepEqual(runs().map((p) => p.viewColumn), [1], 'revealed where it is');
  } finally {
    restore();
    sessions.dispose();
    workers.dispose();
  }
});
