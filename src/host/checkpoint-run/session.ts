// One model spec shown in the model views: its webview panel (the model editor's shell and views),
// a ModelDocument that reads the latest run's attention from the run's worker (client.ts), and the
// runs themselves: the spec read here on the host's thread (spec-text.ts: three fields, no worker
// round trip before the run), one run when the panel opens, then one per edit of the spec (debounced like the spec
// panel, half the last run's cost), a newer edit cancelling an older run (the worker stops it between
// layers and keeps its model), with progress in the status
// bar (and, past a second, a cancellable notification). A spec whose model cannot be found or run gets
// a problem on its "model" value and the one-line reason in the view, never a blank panel; a spec
// whose read here fails gets that reason on its first character and in the view. A head the views
// save, or open in the lens, is written by lens-save.ts. Heads the views ablate are kept here (not in
// the spec): each toggle runs again at once, and every later run (an edit of the text) ablates them too.
// Where the model is and how a head is saved are the host's (RunPlaces): the desktop's disk
// (places/desktop.ts), or the web's workspace.fs (host/web/model-run/), so this file is the same on both.
import * as vscode from 'vscode';
import type { Problem } from '../../core/json/problems.js';
import { stringOffsets } from '../../core/json/string-offsets.js';
import { splitWords } from '../../core/tokenizer/split-words.js';
import { analysisKeyOf, notRunningReason, type ModelSpec } from '../../core/checkpoint-spec/read-model.js';
import { isPrecision, type Precision } from '../../core/checkpoint/precision.js';
import { MAX_MASKED, type ModelHostMessage, type ModelWebviewMessage } from '../../protocol/model-editor.js';
import type { AblationMode, HeadRef } from '../../core/model-analysis/types.js';
import type { RunReport } from '../../protocol/checkpoint-run.js';
import type { AnalysisCache } from '../analysis/cache.js';
import { log } from '../log.js';
import { ModelDocument } from '../model-editor/document.js';
import type { ModelEditorInfo } from '../model-editor/info.js';
import type { ModelView } from '../model-editor/view.js';
import { showModelView } from '../model-editor/webview.js';
import { updateDelay } from '../update-delay.js';
import type { Dialogs } from '../dialogs.js';
import { RunCancelled, RunClient, type ReadRunFiles, type RunFiles, type RunLanes } from './client.js';
import { readModelSpecText, type ModelSpecRead } from './spec-text.js';
import type { LensMessage, LensRun, LensSaving } from './lens-save.js';
import { analysesMessage, analysisRequest, stepProblem } from './run-analyses-message.js';

/** Where a spec's model is, and how a head of its run is saved: the desktop's disk, or the web's workspace.fs. */
export interface RunPlaces {
  /** The model the spec names (its "model" as written): its folder, with its files when the run reads them from memory (the web); or why it cannot run here, in one line. */
  locate(model: string, spec: vscode.Uri): Promise<{ folder: string; files?: RunFiles } | { problem: string }>;
  /** Writes a head of the run as a spec (or in the extension's storage) and opens it; or says why not. */
  saveLens(saving: LensSaving, run: LensRun, m: LensMessage): Promise<void>;
}

export interface RunContext {
  extensionUri: vscode.Uri;
  globalStorageUri: vscode.Uri;
  /** Reads a spec that is no longer a model spec, to say why it does not run. */
  cache: AnalysisCache;
  /** The host's worker service (or the web's lanes): each session's run is a lane of its 'run' job. */
  workers: RunLanes;
  /** Where models are and where heads are saved. */
  places: RunPlaces;
  /** How "Save this head as a spec" asks where to save. */
  dialogs: Dialogs;
  /** Problems of runs, on the spec's "model" value. */
  diagnostics: vscode.DiagnosticCollection;
  /** Opens the spec views (the panel) on a spec. */
  showSpec(uri: vscode.Uri): Thenable<unknown>;
  /** Reads a model spec on the host's thread: readModelSpecText when not given. */
  readSpec?(text: string): ModelSpecRead | undefined;
}

/** The most spelled-out words given a warning each in Problems (the model views' note names them all). */
const MAX_WORD_WARNINGS = 20;

/** A run that takes longer than this gets a notification with a Cancel button too. */
const NOTIFY_AFTER_MS = 1000;

export class RunSession {
  readonly client: RunClient;
  readonly document: ModelDocument;
  readonly view: ModelView;
  private runs = 0;
  private lastKey: string | undefined;
  private lastCostMs: number | undefined;
  private report: RunReport | undefined;
  /** The run's analyses as the views are told them (the step they show included). */
  private analyses: Extract<ModelHostMessage, { type: 'analyses' }> | undefined;
  private folder: string | undefined;
  private model: ModelSpec | undefined;
  private runError: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** The latest runNow's number: one that waited on the model's place while a newer began gives way. */
  private asked = 0;
  /** The heads the views switched off (kept across edits of the text, not in the spec), and how. */
  private ablation: { heads: HeadRef[]; mode: AblationMode } = { heads: [], mode: 'zero' };
  /** The heads the latest report's run ablated. */
  private reportAblated: HeadRef[] = [];

  constructor(private readonly context: RunContext, readonly uri: vscode.Uri, readonly panel: vscode.WebviewPanel, closed: () => void) {
    this.client = new RunClient(context.workers, context.globalStorageUri.fsPath);
    this.document = new ModelDocument({
      uri: uri.toString(), path: uri.fsPath, newReader: () => this.client.reader(), helperCount: () => 0, log: log(),
    });
    this.view = showModelView(panel, uri, this.document, context.extensionUri, () => { this.dispose(); closed(); }, {
      preamble: () => (this.report ? [this.runMessage(this.report), ...(this.analyses ? [this.analyses] : [])] : []),
      lens: (m) => { void this.lens(m); },
      analysis: (m) => { if (m.type === 'step') this.step(m.tokens); else void this.logitLens(); },
      ablate: (m) => this.ablate(m),
      describe: () => ({
        runs: this.runs,
        ...(this.report ? { next: this.report.next.map((t) => t.token) } : {}),
        ...(this.runError !== undefined ? { runError: this.runError } : {}),
      }),
    });
    void this.runNow();
  }

  /** The spec was edited: run again after a pause (half the last run's cost). */
  changed(): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; void this.runNow(); }, updateDelay(this.lastCostMs));
  }

  info(): ModelEditorInfo { return this.view.info(); }

  /** "Save this head as a spec" from the command: the head (and token) the views asked for last, else layer 1 head 1. */
  saveShownHead(): Promise<void> {
    const shown = this.view.lastHead ?? { layer: 0, head: 0 };
    const n = this.report?.ids.length ?? 1;
    return this.lens({ type: 'lens', layer: shown.layer, head: shown.head, token: n - 1, save: true });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.client.dispose();
    this.document.dispose();
    this.context.diagnostics.delete(this.uri);
  }

  private async runNow(): Promise<void> {
    if (this.disposed) return;
    const asked = ++this.asked;
    let document: vscode.TextDocument;
    let spec: ModelSpec | undefined;
    let problems: readonly Problem[];
    try {
      document = await vscode.workspace.openTextDocument(this.uri);
    } catch {
      return; // replaced by a newer version, whose run is on its way
    }
    if (this.disposed) return;
    // A model spec is read here; a text edited into another kind of spec is read by the analysis, which says why it does not run.
    let here: ModelSpecRead | undefined;
    try {
      here = (this.context.readSpec ?? readModelSpecText)(document.getText());
    } catch (e) {
      // No spec to put the problem on: it goes on the spec's first character, and the view says why.
      this.refuse(`the spec could not be read: ${e instanceof Error ? e.message : String(e)}`, undefined, document, new vscode.Range(0, 0, 0, 1));
      return;
    }
    try {
      ({ model: spec, problems } = here ?? await this.context.cache.get(document));
    } catch {
      return; // replaced by a newer version, whose run is on its way
    }
    if (this.disposed) return;
    if (!spec) {
      // The spec's own problems are in the Problems panel already (the diagnostics read it too).
      this.refuse(notRunningReason(problems), undefined, document);
      return;
    }
    this.model = spec;
    const at = await this.locate(spec.model);
    // A newer edit's run began while the model was looked for (on the web its files were read): it wins.
    if (this.disposed || asked !== this.asked) return;
    if ('problem' in at) {
      this.refuse(at.problem, spec, document);
      return;
    }
    const precision = modelPrecision();
    const analysis = analysisRequest(spec);
    // Heads ablated in one model mean nothing in another.
    if (this.folder !== undefined && at.folder !== this.folder) this.ablation = { ...this.ablation, heads: [] };
    const { heads, mode } = this.ablation;
    const ablate = heads.length ? { heads, labels: heads.map((h) => `${h.layer + 1}.${h.head + 1}`), mode } : undefined;
    const key = JSON.stringify([at.folder, spec.text, spec.maxTokens, precision, analysis ?? null, ablate ?? null]);
    if (key === this.lastKey && this.runError === undefined) return;
    this.lastKey = key;
    this.folder = at.folder;
    const started = performance.now();
    const run = this.client.run(at.folder, spec.text, spec.maxTokens, precision, analysis, ablate, at.read);
    // The views open the new run once it is done (the document's reader waits for it).
    this.document.reread();
    this.progress(run, spec.model);
    try {
      const report = await run;
      if (this.disposed) return;
      this.lastCostMs = performance.now() - started;
      this.report = report;
      this.analyses = analysesMessage(spec, report);
      this.reportAblated = heads;
      this.runs++;
      this.runError = undefined;
      this.warnSplitWords(report, spec, document);
      this.view.say(this.runMessage(report));
      if (this.analyses) this.view.say(this.analyses);
      log().info(`model run: ${spec.model}, ${report.ids.length} tokens (${report.reused} reused): load ${report.timings.loadMs.toFixed(0)} ms, forward ${report.timings.forwardMs.toFixed(0)} ms`);
    } catch (e) {
      if (this.disposed || (e instanceof RunCancelled && this.lastKey !== key)) return; // a newer run took its place
      this.lastKey = undefined;
      // A cancelled run is said in the view; it is no problem of the spec.
      this.problem(e instanceof Error ? e.message : String(e), e instanceof RunCancelled ? undefined : spec, document);
    }
  }

  /**
   * The model's place, with its files read when the run's worker lacks them (the web's); a failure to
   * find or read them is the problem said, never a run left waiting.
   */
  private async locate(model: string): Promise<{ folder: string; read?: ReadRunFiles } | { problem: string }> {
    try {
      const at = await this.context.places.locate(model, this.uri);
      if ('problem' in at || !at.files || !this.client.needsFiles(at.files.key)) return 'problem' in at ? at : { folder: at.folder };
      const read = await at.files.read();
      return 'problem' in read ? read : { folder: at.folder, read: { key: at.files.key, entries: read.entries } };
    } catch (e) {
      return { problem: `the model could not be looked for: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /** The spec cannot run: the problem on "model" (when it has one), and the view says why. */
  private refuse(message: string, spec: ModelSpec | undefined, document: vscode.TextDocument, at?: vscode.Range): void {
    this.lastKey = undefined;
    this.client.refuse(message);
    this.document.reread();
    this.problem(message, spec, document, at);
  }

  /** The problem on the spec's "model" value, or at `at` for one that is no problem of a value. */
  private problem(message: string, spec: ModelSpec | undefined, document: vscode.TextDocument, at?: vscode.Range): void {
    this.runError = message;
    if (at) { this.diagnose(at, message); return; }
    if (!spec) { this.context.diagnostics.delete(this.uri); return; }
    // A target of two tokens, a text to patch from of another length: on that value, not on "model".
    const key = analysisKeyOf(message);
    const span = (key && spec.analysisSpans?.[key]) || spec.modelSpan;
    const range = new vscode.Range(document.positionAt(span.offset), document.positionAt(span.offset + span.length));
    this.diagnose(range, `${span === spec.modelSpan ? 'model' : key}: ${message}`);
  }

  /** Each word the tokenizer spelled out letter by letter, as a warning on it in the spec's "text" (none: no problems). */
  private warnSplitWords(report: RunReport, spec: ModelSpec, document: vscode.TextDocument): void {
    const source = document.getText();
    const places = stringOffsets(source, spec.textSpan.offset);
    const warnings = splitWords(report.tokens, spec.text).slice(0, MAX_WORD_WARNINGS).flatMap((w) => {
      if (!w.at) return [];
      const range = new vscode.Range(document.positionAt(places.at(w.at.offset)), document.positionAt(places.at(w.at.offset + w.at.length)));
      const d = new vscode.Diagnostic(range, `text: "${w.word}" is not in ${spec.model}'s vocabulary: the tokenizer spelled it out in ${w.count} one-letter pieces, `
        + 'which the model has rarely seen, so its attention and predictions there are less to be trusted', vscode.DiagnosticSeverity.Warning);
      d.source = 'Attention Lens';
      return [d];
    });
    if (warnings.length) this.context.diagnostics.set(this.uri, warnings);
    else this.context.diagnostics.delete(this.uri);
  }

  private diagnose(range: vscode.Range, message: string): void {
    const d = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Error);
    d.source = 'Attention Lens';
    this.context.diagnostics.set(this.uri, [d]);
  }

  private runMessage(r: RunReport): ModelHostMessage {
    return {
      type: 'run', model: this.model?.model ?? r.model.type, next: r.next, forwardMs: r.timings.forwardMs,
      ...(r.model.precision ? { precision: r.model.precision } : {}),
      ...(r.masked ? { masked: r.masked.slice(0, MAX_MASKED) } : {}), ...(r.note !== undefined ? { note: r.note } : {}),
      ...(r.ablation ? { ablation: { ...r.ablation, heads: this.reportAblated } } : {}),
    };
  }

  /** The views show the run's first `tokens` positions (a step through its generation): read anew, told the step. */
  private step(tokens: number): void {
    const analyses = this.analyses;
    const why = stepProblem(analyses, tokens);
    if (why !== undefined || !analyses) { log().warn(`model run: ignored a step: ${why}`); return; }
    // A step of the run being replaced would show a prefix of the new one: the new run shows itself whole.
    if (analyses.shown === tokens || this.client.running) return;
    this.analyses = { ...analyses, shown: tokens };
    void this.client.step(tokens).catch(() => {}); // its failure is what the views' reread shows
    this.document.reread();
    this.view.say(this.analyses);
  }

  /** The run's logit lens for its view: computed once per run in the worker, or why not. */
  private async logitLens(): Promise<void> {
    const runs = this.runs;
    if (!this.report) return;
    try {
      const lens = await this.client.logitLens();
      if (!this.disposed && runs === this.runs) this.view.say({ type: 'logitLens', lens });
    } catch (e) {
      if (!this.disposed && runs === this.runs && !(e instanceof RunCancelled)) this.view.say({ type: 'logitLens', error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** The views switched heads off or on (or changed how): the run again at once, the heads kept for later edits. */
  private ablate(m: Extract<ModelWebviewMessage, { type: 'ablate' }>): void {
    if (this.disposed) return;
    // An encoder predicts no next token: there is nothing for an ablation to change (the core refuses it).
    if (this.report && this.report.next.length === 0) { log().warn('model run: ignored heads to ablate: this model predicts no next token'); return; }
    // A long run kept q and k, not whole heads: an ablation would be refused, and every later edit with it.
    if (this.report?.wholeHeads !== undefined && m.heads.length > 0) { log().warn(`model run: ignored heads to ablate: ${this.report.wholeHeads}`); return; }
    this.ablation = { heads: m.heads.map(({ layer, head }) => ({ layer, head })), mode: m.mode };
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    void this.runNow();
  }

  /** Progress in the status bar; past a second, a notification with Cancel as well. */
  private progress(run: Promise<unknown>, model: string): void {
    const title = `Attention Lens: running ${model}`;
    const settled = run.then(() => {}, () => {});
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, () => settled);
    const timer = setTimeout(() => {
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
        token.onCancellationRequested(() => this.client.cancel());
        return settled;
      });
    }, NOTIFY_AFTER_MS);
    void settled.then(() => clearTimeout(timer));
  }

  /** A head of the run in the spec views, saved or opened in the lens (lens-save.ts). */
  private async lens(m: LensMessage): Promise<void> {
    const folder = this.folder, model = this.model?.model;
    if (!folder || !model || !this.report) return;
    const { dialogs, globalStorageUri, showSpec } = this.context;
    await this.context.places.saveLens({ lens: (layer, head) => this.client.lens(layer, head), dialogs, globalStorageUri, showSpec }, { spec: this.uri, model, folder }, m);
  }
}

/** The setting attentionLens.model.precision: the runs' numeric form (float32 unless it says f64). */
function modelPrecision(): Precision {
  const v = vscode.workspace.getConfiguration('attentionLens').get<unknown>('model.precision');
  return isPrecision(v) ? v : 'f32';
}
