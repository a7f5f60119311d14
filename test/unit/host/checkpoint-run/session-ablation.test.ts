// A model spec's session (src/host/checkpoint-run/session.ts) with the views' norms switch and head
// ablation, in the vscode stand-in with the built workers, on the hand-built induction GPT-2
// (examples/models/induction-gpt2: layer 2 head 1 copies " sat" after the second " cat"): ablating
// that head runs the model again and the views read the ablated run, whose next tokens lose " sat"
// at the top; the heads stay ablated across an edit of the text; restoring them gives the run's own
// next tokens back; the norms switch gives the views a header of norms and heads with ‖v W_O‖; a
// message naming a head outside the model is refused and runs nothing; an encoder (a tiny RoBERTa,
// which predicts no next token) has norms but runs no ablation. A spec's target and generation with
// heads ablated: the ablation scores that target, the analyses stay, a step reads the ablated prefix.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cpSync, writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { RunSession, type RunContext } from '../../../../src/host/checkpoint-run/session.js';
import { desktopRunPlaces } from '../../../../src/host/checkpoint-run/places/desktop.js';
import { distScripts, WorkerService } from '../../../../src/host/workers/service.js';
import type { AnalysisCache } from '../../../../src/host/analysis/cache.js';
import { proposedDialogs } from '../../../../src/host/dialogs.js';
import type { ModelRunInfo } from '../../../../src/core/model-attention/data.js';
import { asVscode, languages, workspace, standIn, Uri, ViewColumn, window } from '../../../support/vscode/index.js';
import { until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { writeCheckpoint } from '../../../support/encoder-reference.js';
import { encoderTokenizer } from '../../../support/encoder-tokenizer.js';
import { ROBERTA_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

beforeEach(() => standIn.reset());

/** A session on the induction GPT-2 (its spec with `asks` beside), or (`encoder`) on a tiny RoBERTa, which predicts no next token. */
function open(encoder = false, asks: Record<string, unknown> = {}) {
  const dir = tempDir('attn-ablation-');
  let model = 'induction-gpt2', text = 'The cat sat on the mat. The cat';
  if (encoder) {
    const tokenizer = encoderTokenizer('roberta');
    const folder = writeCheckpoint(join(dir, 'tiny-roberta'), tinyCheckpoint({ ...ROBERTA_CONFIG, vocab_size: tokenizer.vocabSize }, 4));
    writeFileSync(join(folder, 'tokenizer.json'), tokenizer.text);
    model = 'tiny-roberta';
    text = 'the cat <mask> on the mat';
  } else {
    cpSync(join(ROOT, 'examples', 'models', 'induction-gpt2'), join(dir, 'induction-gpt2'), { recursive: true });
  }
  const spec = Uri.file(join(dir, 'run.attn.json'));
  writeFileSync(spec.fsPath, JSON.stringify({ model, text, ...asks }));
  const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
  const context: RunContext = {
    extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)),
    globalStorageUri: asVscode<vscode.Uri>(Uri.file(join(dir, 'storage'))),
    cache: asVscode<AnalysisCache>({ get: () => Promise.reject(new Error('the analysis is not asked here')) }),
    workers, places: desktopRunPlaces, dialogs: proposedDialogs,
    diagnostics: asVscode<vscode.DiagnosticCollection>(languages.createDiagnosticCollection('attention-lens-runs')),
    showSpec: () => Promise.resolve(),
  };
  const panel = window.createWebviewPanel('attentionLens.modelRun', 'Run', ViewColumn.Beside, {});
  const session = new RunSession(context, asVscode<vscode.Uri>(spec), asVscode<vscode.WebviewPanel>(panel), () => {});
  const runs = () => panel.webview.receivedOf('run') as unknown as ModelRunInfo[];
  const models = () => panel.webview.receivedOf('model') as unknown as { header: { file: string; norms?: boolean; warnings: string[] } }[];
  const close = () => { session.dispose(); panel.dispose(); workers.dispose(); };
  /** Runs done (each view refresh posts the latest run's message again: the messages are no count). */
  const done = () => session.info().runs ?? 0;
  /** Waits for run number `k` and its message. */
  const ran = async (k: number, what: string) => {
    await until(what, () => done() >= k, 30_000);
    return runs().at(-1)!;
  };
  return { spec, panel, session, runs, models, close, done, ran };
}

test('ablating the induction head moves " sat" from first place; it stays ablated across an edit; restoring gives the run back', async () => {
  const s = open();
  try {
    s.panel.webview.fromPage({ type: 'ready' });
    await until('the first run', () => s.done() >= 1 && s.models().length >= 1, 30_000);
    const base = s.runs().at(-1)!;
    assert.equal(base.next[0].token, ' sat');
    assert.equal(base.ablation, undefined);
    s.panel.webview.fromPage({ type: 'ablate', heads: [{ layer: 1, head: 0 }], mode: 'zero' });
    const ablated = await s.ran(2, 'the ablated run');
    assert.deepEqual(ablated.ablation!.heads, [{ layer: 1, head: 0 }]);
    assert.deepEqual(ablated.next, base.next, 'the run\'s own list is kept beside');
    assert.notEqual(ablated.ablation!.next[0].token, ' sat', `ablated, the first is ${JSON.stringify(ablated.ablation!.next[0])}`);
    assert.ok(ablated.ablation!.logitDiff < ablated.ablation!.baseLogitDiff, `" sat"'s logit falls: ${ablated.ablation!.baseLogitDiff} → ${ablated.ablation!.logitDiff}`);
    await until('the views read the ablated run', () => s.models().at(-1)!.header.file === 'the ablated run', 30_000);
    // An edit of the text: the heads stay ablated (the session keeps them, not the spec).
    const document = await workspace.openTextDocument(s.spec);
    standIn.documents.type(document, JSON.stringify({ model: 'induction-gpt2', text: 'The dog ran on the mat. The dog' }));
    s.session.changed();
    const edited = await s.ran(3, 'the edited run');
    assert.deepEqual(edited.ablation?.heads, [{ layer: 1, head: 0 }]);
    assert.equal(edited.next[0].token, ' ran', 'the edited text\'s own prediction follows its repeat');
    standIn.documents.type(document, JSON.stringify({ model: 'induction-gpt2', text: 'The cat sat on the mat. The cat' }));
    s.session.changed();
    assert.deepEqual((await s.ran(4, 'the text back')).ablation, ablated.ablation, 'the same ablation of the same text: the same numbers');
    s.panel.webview.fromPage({ type: 'ablate', heads: [], mode: 'zero' });
    const restored = await s.ran(5, 'the restored run');
    assert.equal(restored.ablation, undefined);
    assert.deepEqual(restored.next, base.next, 'the run\'s own next tokens, exactly');
    await until('the views read the run', () => s.models().at(-1)!.header.file === 'the run', 30_000);
  } finally {
    s.close();
  }
});

test('the norms switch: a header of norms without "sum to 1" warnings, heads with ‖v W_O‖; a head outside the model runs nothing', async () => {
  const s = open();
  try {
    s.panel.webview.fromPage({ type: 'ready' });
    await until('the first run', () => s.done() >= 1 && s.models().length >= 1, 30_000);
    s.panel.webview.fromPage({ type: 'norms', on: true });
    await until('the norms\' header', () => s.models().some((m) => m.header.norms), 30_000);
    const header = s.models().find((m) => m.header.norms)!.header;
    assert.ok(!header.warnings.some((w) => /sum to 1/.test(w)), header.warnings.join(' | '));
    s.panel.webview.fromPage({ type: 'head', layer: 1, head: 0 });
    await until('the head', () => s.panel.webview.receivedOf('head').length > 0, 30_000);
    const head = s.panel.webview.receivedOf('head')[0] as { weights: Float32Array; valueNorms: Float32Array };
    assert.equal(head.valueNorms.length, Math.sqrt(head.weights.length));
    assert.ok(head.valueNorms.every((v) => Number.isFinite(v) && v >= 0));
    const client = s.session.client;
    const asked: unknown[][] = [];
    const run = client.run.bind(client);
    Object.assign(client, { run: (...a: Parameters<typeof run>) => { asked.push(a); return run(...a); } });
    s.panel.webview.fromPage({ type: 'ablate', heads: [{ layer: 2, head: 0 }], mode: 'zero' });
    // Read after the refused message: a run it started would have been asked for by then.
    s.panel.webview.fromPage({ type: 'norms', on: false });
    await until('the weights\' header', () => s.models().at(-1)!.header.norms === undefined, 30_000);
    assert.deepEqual(asked, [], 'no run for a refused message');
    assert.ok(s.runs().every((r) => r.ablation === undefined));
    s.panel.webview.fromPage({ type: 'ablate', heads: [{ layer: 1, head: 1 }], mode: 'mean' });
    await until('a run for a sound one', () => asked.length === 1, 30_000);
    assert.deepEqual((asked[0][5] as { heads: unknown; labels: unknown }).labels, ['2.2']);
  } finally {
    s.close();
  }
});

test('an encoder (no next token): the norms switch works, heads to ablate run nothing', async () => {
  const s = open(true);
  try {
    s.panel.webview.fromPage({ type: 'ready' });
    await until('the first run', () => s.done() >= 1 && s.models().length >= 1, 30_000);
    assert.deepEqual(s.runs().at(-1)!.next, []);
    const client = s.session.client;
    const asked: unknown[][] = [];
    const run = client.run.bind(client);
    Object.assign(client, { run: (...a: Parameters<typeof run>) => { asked.push(a); return run(...a); } });
    s.panel.webview.fromPage({ type: 'ablate', heads: [{ layer: 0, head: 0 }], mode: 'zero' });
    s.panel.webview.fromPage({ type: 'norms', on: true });
    await until('the norms\' header', () => s.models().some((m) => m.header.norms), 30_000);
    assert.deepEqual(asked, [], 'no run of an ablation an encoder cannot score');
    assert.equal(s.session.info().runError, undefined);
  } finally {
    s.close();
  }
});

test('a spec with a target and generated tokens, heads ablated: the ablation scores the target; the analyses stay; a step reads the ablated prefix', async () => {
  const s = open(false, { target: ' sat', contrast: ' mat', generate: 2 });
  try {
    s.panel.webview.fromPage({ type: 'ready' });
    const analysesOf = () => s.panel.webview.receivedOf('analyses') as unknown as { positions: number; shown: number; generated?: { id: number }[]; attribution?: { target: number; contrast: number | null; total: number } }[];
    await until('the first run and its analyses', () => s.done() >= 1 && analysesOf().length >= 1, 30_000);
    const first = analysesOf().at(-1)!;
    assert.ok(first.attribution && first.generated?.length === 2, JSON.stringify(first));
    s.panel.webview.fromPage({ type: 'ablate', heads: [{ layer: 1, head: 0 }], mode: 'zero' });
    const ablated = await s.ran(2, 'the ablated run');
    const a = ablated.ablation!;
    assert.deepEqual([a.target, a.contrast], [first.attribution.target, first.attribution.contrast], 'the spec\'s target and contrast');
    assert.ok(Math.abs(a.baseLogitDiff - first.attribution.total) < 1e-4, `${a.baseLogitDiff} vs the attribution's ${first.attribution.total}`);
    assert.ok(a.logitDiff < a.baseLogitDiff, `" sat" − " mat" falls with the induction head off: ${a.baseLogitDiff} → ${a.logitDiff}`);
    const again = analysesOf().at(-1)!;
    assert.deepEqual([again.attribution, again.generated], [first.attribution, first.generated], 'the run\'s own analyses, told again');
    await until('the views read the ablated run', () => s.models().at(-1)!.header.file === 'the ablated run', 30_000);
    s.panel.webview.fromPage({ type: 'step', tokens: again.positions - 1 });
    await until('the step of the ablated run', () => {
      const h = (s.models().at(-1)!.header as { file: string; tokens?: number });
      return h.file === 'the ablated run' && h.tokens === again.positions - 1;
    }, 30_000);
  } finally {
    s.close();
  }
});
