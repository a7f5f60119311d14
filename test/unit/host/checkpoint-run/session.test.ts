// A model spec's session (src/host/checkpoint-run/session.ts) in the vscode stand-in: a spec whose
// read on the host's thread throws gets its one-line reason in the view and a problem on the spec,
// never a blank panel; a run whose text has a word outside the model's vocabulary gets a warning on
// that word, escapes and all, and none once the word is gone.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { RunSession, type RunContext } from '../../../../src/host/checkpoint-run/session.js';
import { desktopRunPlaces } from '../../../../src/host/checkpoint-run/places/desktop.js';
import { distScripts, WorkerService } from '../../../../src/host/workers/service.js';
import type { AnalysisCache } from '../../../../src/host/analysis/cache.js';
import { proposedDialogs } from '../../../../src/host/dialogs.js';
import { asVscode, DiagnosticSeverity, languages, workspace, standIn, Uri, ViewColumn, window } from '../../../support/vscode/index.js';
import { until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

beforeEach(() => standIn.reset());

/** A session's context in the stand-in: the built workers, a diagnostics collection, storage under `dir`. */
function runContext(dir: string, extra: Partial<RunContext> = {}) {
  const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
  const diagnostics = languages.createDiagnosticCollection('attention-lens-runs');
  const context: RunContext = {
    extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)),
    globalStorageUri: asVscode<vscode.Uri>(Uri.file(join(dir, 'storage'))),
    cache: asVscode<AnalysisCache>({ get: () => Promise.reject(new Error('the analysis is not asked here')) }),
    workers,
    places: desktopRunPlaces,
    dialogs: proposedDialogs,
    diagnostics: asVscode<vscode.DiagnosticCollection>(diagnostics),
    showSpec: () => Promise.resolve(),
    ...extra,
  };
  return { workers, diagnostics, context };
}

test('a spec whose read throws: the reason in the view and on the spec, not a blank panel', async () => {
  const dir = tempDir('attn-session-');
  const spec = Uri.file(join(dir, 'run.attn.json'));
  writeFileSync(spec.fsPath, JSON.stringify({ model: 'gpt2', text: 'The cat' }));
  const { workers, diagnostics, context } = runContext(dir, { readSpec: () => { throw new Error('the reader broke'); } });
  const panel = window.createWebviewPanel('attentionLens.modelRun', 'Run', ViewColumn.Beside, {});
  const session = new RunSession(context, asVscode<vscode.Uri>(spec), asVscode<vscode.WebviewPanel>(panel), () => {});
  try {
    panel.webview.fromPage({ type: 'ready' });
    await until('the view\'s error', () => session.info().state === 'error');
    assert.equal(session.info().error, 'the spec could not be read: the reader broke');
    assert.equal(session.info().runError, 'the spec could not be read: the reader broke');
    const [problem] = diagnostics.get(spec) ?? [];
    assert.equal(problem?.message, 'the spec could not be read: the reader broke');
    assert.deepEqual([problem.range.start.line, problem.range.start.character], [0, 0]);
  } finally {
    session.dispose();
    panel.dispose();
    workers.dispose();
  }
});

test('a word the tokenizer spells out is a warning on it in the spec\'s text; an edit without it clears the warning', async () => {
  const dir = tempDir('attn-session-');
  const spec = Uri.file(join(dir, 'run.attn.json'));
  // The escape before the word moves it in the file, not in the text.
  cpSync(join(ROOT, 'examples', 'models', 'induction-gpt2'), join(dir, 'induction-gpt2'), { recursive: true });
  const write = (text: string) => writeFileSync(spec.fsPath, `{ "model": "induction-gpt2",\n  "text": ${JSON.stringify(text).replace('\\n', '\\u000a')} }`);
  write('The cat sat.\nThe zebra sat on the mat. The zebra');
  const { workers, diagnostics, context } = runContext(dir);
  const panel = window.createWebviewPanel('attentionLens.modelRun', 'Run', ViewColumn.Beside, {});
  const session = new RunSession(context, asVscode<vscode.Uri>(spec), asVscode<vscode.WebviewPanel>(panel), () => {});
  try {
    panel.webview.fromPage({ type: 'ready' });
    await until('the first run', () => (session.info().runs ?? 0) >= 1 || session.info().runError !== undefined, 30_000);
    assert.equal(session.info().runError, undefined);
    // The model views say it where the tokens are shown: with the run's warnings.
    await until('the model views\' header', () => panel.webview.receivedOf('model').length > 0, 30_000);
    const model = panel.webview.receivedOf('model')[0] as { header: { warnings: string[]; tokenTexts: string[] } };
    assert.ok(model.header.tokenTexts.includes('z'));
    // The run message says the numeric form it ran in: float32 unless the setting says f64.
    await until('the run message', () => panel.webview.receivedOf('run').length > 0, 30_000);
    assert.equal((panel.webview.receivedOf('run')[0] as { precision?: string }).precision, 'f32');
    assert.ok(model.header.warnings.some((w) => /^"zebra" is not in the model's vocabulary: the tokenizer spelled it out letter by letter/.test(w)), model.header.warnings.join(' | '));
    const problems = diagnostics.get(spec) ?? [];
    assert.equal(problems.length, 2, problems.map((p) => p.message).join('\n'));
    const source = readFileSync(spec.fsPath, 'utf8').split('\n');
    for (const p of problems) {
      assert.equal(p.severity, DiagnosticSeverity.Warning);
      assert.match(p.message, /^text: "zebra" is not in induction-gpt2's vocabulary: the tokenizer spelled it out in 5 one-letter pieces/);
      assert.equal(p.range.start.line, p.range.end.line);
      assert.equal(source[p.range.start.line].slice(p.range.start.character, p.range.end.character), 'zebra');
    }
    const document = await workspace.openTextDocument(spec);
    standIn.documents.type(document, document.getText().replace(/zebra/g, 'cat'));
    session.changed();
    await until('the second run', () => (session.info().runs ?? 0) >= 2, 30_000);
    assert.deepEqual(diagnostics.get(spec) ?? [], []);
  } finally {
    session.dispose();
    panel.dispose();
    workers.dispose();
  }
});
