// A model spec asking for more than the attention, in its session (src/host/checkpoint-run/session.ts)
// in the vscode stand-in with the built run worker: a "target" and "generate" give the views the
// attribution and the generated tokens; a step of the generation reopens the views on that prefix;
// the logit lens comes when its view asks; a target of two tokens is a problem on the "target" value.
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
import { asVscode, languages, standIn, Uri, ViewColumn, window } from '../../../support/vscode/index.js';
import { until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

beforeEach(() => standIn.reset());

function session(specText: string) {
  const dir = tempDir('attn-session-');
  cpSync(join(ROOT, 'examples', 'models', 'induction-gpt2'), join(dir, 'induction-gpt2'), { recursive: true });
  const spec = Uri.file(join(dir, 'run.attn.json'));
  writeFileSync(spec.fsPath, specText);
  const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
  const diagnostics = languages.createDiagnosticCollection('attention-lens-runs');
  const context: RunContext = {
    extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)),
    globalStorageUri: asVscode<vscode.Uri>(Uri.file(join(dir, 'storage'))),
    cache: asVscode<AnalysisCache>({ get: () => Promise.reject(new Error('the analysis is not asked here')) }),
    workers, places: desktopRunPlaces, dialogs: proposedDialogs, diagnostics: asVscode<vscode.DiagnosticCollection>(diagnostics), showSpec: () => Promise.resolve(),
  };
  const panel = window.createWebviewPanel('attentionLens.modelRun', 'Run', ViewColumn.Beside, {});
  const s = new RunSession(context, asVscode<vscode.Uri>(spec), asVscode<vscode.WebviewPanel>(panel), () => {});
  panel.webview.fromPage({ type: 'ready' });
  return { spec, panel, diagnostics, session: s, end: () => { s.dispose(); panel.dispose(); workers.dispose(); } };
}

test('a target and generate give the attribution and the generated tokens; a step reopens the views on that prefix; the logit lens comes when asked', async () => {
  const t = session('{ "model": "induction-gpt2", "text": "The cat sat on the mat. The cat", "target": " sat", "generate": 2 }');
  try {
    await until('the analyses', () => t.panel.webview.receivedOf('analyses').length > 0 || t.session.info().runError !== undefined, 30_000);
    assert.equal(t.session.info().runError, undefined);
    const analyses = t.panel.webview.receivedOf('analyses')[0] as { positions: number; shown: number; target: string; generated: { id: number }[]; attribution: { heads: number[][]; total: number } };
    assert.equal(analyses.target, ' sat');
    assert.equal(analyses.generated.length, 2);
    assert.equal(analyses.shown, analyses.positions);
    assert.equal(analyses.attribution.heads.length, 2);
    await until('the whole run\'s header', () => t.panel.webview.receivedOf('model').length > 0, 30_000);
    const whole = t.panel.webview.receivedOf('model').at(-1) as { header: { tokens: number } };
    assert.equal(whole.header.tokens, analyses.positions);
    // One step back: the views are opened again on the run less its last token.
    t.panel.webview.fromPage({ type: 'step', tokens: analyses.positions - 1 });
    await until('the step\'s header', () => (t.panel.webview.receivedOf('model').at(-1) as { header: { tokens: number } }).header.tokens === analyses.positions - 1, 30_000);
    assert.equal((t.panel.webview.receivedOf('analyses').at(-1) as { shown: number }).shown, analyses.positions - 1);
    // A step before the text's own end is ignored.
    t.panel.webview.fromPage({ type: 'step', tokens: 1 });
    t.panel.webview.fromPage({ type: 'logitLens' });
    await until('the logit lens', () => t.panel.webview.receivedOf('logitLens').length > 0, 30_000);
    const lens = t.panel.webview.receivedOf('logitLens')[0] as { lens: { token: string; p: number }[][][] };
    assert.equal(lens.lens.length, 2);
    assert.equal((t.panel.webview.receivedOf('analyses').at(-1) as { shown: number }).shown, analyses.positions - 1);
  } finally {
    t.end();
  }
});

test('a target of more than one token is a problem on the "target" value, not on "model"', async () => {
  const t = session('{ "model": "induction-gpt2",\n  "text": "The cat sat on the mat. The cat",\n  "target": " cat sat" }');
  try {
    await until('the run\'s problem', () => t.session.info().runError !== undefined, 30_000);
    const [problem] = t.diagnostics.get(t.spec) ?? [];
    assert.match(problem?.message ?? '', /^target: the target token " cat sat" is \d+ tokens/);
    const line = readFileSync(t.spec.fsPath, 'utf8').split('\n')[problem.range.start.line];
    assert.equal(line.slice(problem.range.start.character, problem.range.end.character), '" cat sat"');
  } finally {
    t.end();
  }
});
