// `npm run bench:vscode`, the part that runs inside VS Code's extension host (loaded as
// extensionTestsPath by scripts/bench-vscode.mjs): for each spec in the workspace, how long from
// a changed spec to the webview's next paint.
//
// The panel's test API reports the version it last showed and its state, but a good version that
// follows another good one is reported 'ready' as soon as it is posted, before the webview paints.
// So each measured edit takes the spec from broken (the panel in 'error') to good again: the panel
// turns 'ready' only on the webview's 'painted' for that version. The host and webview work is the
// same as for any edit (debounce, analysis, post, draw, 'painted' back).
//
// Figures per spec (ms, from performance.now() in this process, polled every ~1 ms):
//   total     WorkspaceEdit applied -> panels() shows that version 'ready' (the webview said 'painted')
//   after     the same minus the moment onDidChangeTextDocument fired and the host's wait after the edit
//             (timings().lastWaitMs: none for an edit after a quiet spell, as each measured edit is;
//             while typing, the debounce, half the cost of the last redraw, 25 to 300 ms)
//   switch    Show Attention on this spec while the panel shows another -> 'painted' (timings().lastShowToPaintMs; no debounce)
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, extension, type TestApi } from '../helpers';
import { HostProfiler, type HostProfile } from './host-profile';
import { untilQuiet } from '../../../scripts/vscode/bench-wait.mjs';


export interface BenchRow {
  spec: string;
  tokens: number;
  heads: number;
  view: string;
  runs: number;
  totalMs: number[];
  afterDebounceMs: number[];
  switchToPaintMs?: number;
  /** Bytes of the binary buffer posted to the webview for this spec. */
  messageBytes?: number;
  /** The longest stall of the extension host's thread during each measured edit (ms). */
  maxStallMs: number[];
  /** How long the result's postMessage held the host's thread, per measured edit (ms). */
  postMs: number[];
  /** The worker's read + compute + pack, per measured edit (ms). */
  analysisMs: number[];
  /** The parts of each measured edit (ms): WorkspaceEdit applied -> onDidChangeTextDocument here, the panel's wait
   *  after the edit, the result posted -> the webview's 'painted' of it, and the drawing the webview reported. */
  changeMs: number[];
  waitMs: number[];
  postToPaintMs: number[];
  drawMs: number[];
  /** With ATTN_BENCH_PROFILE: each measured edit's CPU profile of the host's thread, read (./host-profile.ts). */
  profiles?: HostProfile[];
  /** Keys pressed in the spec's editor by the browser (scripts/vscode/keystroke-to-frame.mjs): key -> the frame showing its result. */
  typing?: TypingResult;
}

/** What scripts/vscode/keystroke-to-frame.mjs measured for one spec (or why it could not). */
export interface TypingResult {
  keys?: number;
  keyToFrameMs?: number[];
  maxRedrawsPerKey?: number;
  skewMs?: number;
  skewWithinMs?: number;
  /** How many versions the document moved while the keys were pressed (each key is one). */
  versions?: number;
  error?: string;
}

/** A model attention file opened in the model editor (ATTN_BENCH_MODELS=1). */
export interface ModelBenchRow {
  file: string;
  layers: number;
  heads: number;
  tokens: number;
  /** From resolving the editor to its webview's 'ready', to its first paint showing a head, and to the paint showing them all. */
  readyMs: number;
  /**
   * An empty webview's 'ready' in the same column just before this file was opened (median of 3): the
   * floor under readyMs, measured beside it (the window's first seconds, when the others are measured, are busier).
   */
  emptyReadyMs: number;
  firstPaintMs: number;
  /** The webview's drawing of the grid with every head. */
  gridDrawMs: number;
  fullPaintMs: number;
  /** From asking for the file to every head read (in the workers). */
  scanMs: number;
  /** The extension host's longest stall while the file was opened and read. */
  maxStallMs: number;
  /** Head switches: from the webview's request to the head view's paint, and the read within it. */
  headSwitchMs: number[];
  headReadMs: number[];
  headDrawMs: number[];
  /** With ATTN_BENCH_PROFILE: the host's thread from opening to every head painted, read (./host-profile.ts). */
  profile?: HostProfile;
}

export interface BenchResult {
  vscodeVersion: string;
  rows: BenchRow[];
  models?: ModelBenchRow[];
  coldShowToPaintMs?: number;
  /** The first Show Attention's webview boot: show -> the panel's 'ready'. */
  coldShowToReadyMs?: number;
  /** The floor under every webview of ours: a new webview panel whose page only says 'ready' (median of 5). */
  emptyWebviewReadyMs?: number[];
  /**
   * The same empty webview as the window's very first. In code-server every webview shares the
   * workbench's origin, and each later one's service worker (its URL carries the webview's id) waits
   * for the earlier one to hand over control: 1–2 s that the first never pays. So the first empty
   * webview is made before the panel, and the panel, a later webview too, is compared with later ones.
   */
  firstEmptyReadyMs?: number;
  /** The figures that could not be taken (a spec, a model file), each with why: the others are still reported. */
  missing?: { what: string; why: string }[];
  error?: string;
}

/** The browser may take a key's gap and a minute more per key under load; past that with no key pressed, it has stopped. */
const TYPING_QUIET_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(1);
  }
}

function panelOn(a: TestApi, doc: vscode.TextDocument, state: 'ready' | 'error', version = doc.version) {
  const uri = doc.uri.toString();
  return a.panels().find((p) => p.documentUri === uri && p.version >= version && p.state === state);
}

/** The first number among the embeddings: the value the edits toggle. */
function numberToToggle(text: string): { offset: number; text: string } {
  const from = text.indexOf('"embeddings"');
  const m = /-?\d+(\.\d+)?/.exec(text.slice(from));
  if (from < 0 || !m) throw new Error('no number in "embeddings" to edit');
  return { offset: from + m.index, text: m[0] };
}

async function replaceAt(doc: vscode.TextDocument, offset: number, length: number, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + length)), text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the edit was not applied');
}

/**
 * An empty webview's boot in this VS Code: create a panel whose page has one inline script that says
 * 'ready', and time it to that message. What our panels add to their 'ready' is measured against this.
 */
async function emptyWebviewReady(): Promise<number> {
  const nonce = Math.random().toString(36).slice(2);
  const panel = vscode.window.createWebviewPanel('attentionLens.benchEmpty', 'empty', { viewColumn: vscode.ViewColumn.Two, preserveFocus: true }, { enableScripts: true });
  try {
    const t0 = performance.now();
    const said = new Promise<number>((resolve) => {
      panel.webview.onDidReceiveMessage(() => resolve(performance.now() - t0));
    });
    panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'"></head>`
      + `<body><script nonce="${nonce}">acquireVsCodeApi().postMessage({ type: 'ready' });</script></body></html>`;
    return await Promise.race([said, sleep(30_000).then(() => NaN)]);
  } finally {
    panel.dispose();
  }
}

/**
 * The browser types into the spec (ATTN_BENCH_TYPING names the folder the two sides talk through):
 * the cursor goes before the first embedding number's first digit, the editor takes the focus, and the
 * request says how many keys to press and how far apart (a lone edit after a quiet spell each).
 */
let typingRequests = 0;
async function typeInto(doc: vscode.TextDocument, gapMs: number): Promise<TypingResult> {
  const dir = process.env.ATTN_BENCH_TYPING!;
  // Before the number's first digit: a 1 typed there keeps any number a number ("0" -> "10", "-0.5" -> "-10.5";
  // after its last digit "0" -> "07" is not JSON), and Backspace takes it away again.
  const { offset, text } = numberToToggle(doc.getText());
  const at = doc.positionAt(offset + (text.startsWith('-') ? 1 : 0));
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false, preview: false, selection: new vscode.Range(at, at) });
  await sleep(500);
  const before = doc.version;
  const id = typingRequests++;
  const keys = 10;
  fs.writeFileSync(path.join(dir, `request-${id}.json.tmp`), JSON.stringify({ spec: path.basename(doc.uri.fsPath), keys, gapMs }));
  fs.renameSync(path.join(dir, `request-${id}.json.tmp`), path.join(dir, `request-${id}.json`));
  const resultFile = path.join(dir, `result-${id}.json`);
  // As long as it takes: the browser writes progress-<id>.json after each key (keystroke-to-frame.mjs).
  const progressFile = path.join(dir, `progress-${id}.json`);
  try {
    await untilQuiet({
      what: `the browser to type ${keys} keys ${gapMs} ms apart`, probe: () => fs.existsSync(resultFile),
      progress: () => { try { return fs.readFileSync(progressFile, 'utf8'); } catch { return ''; } },
      quietMs: gapMs + TYPING_QUIET_MS, pollMs: 20,
    });
  } catch (e) {
    return { error: `key -> frame not measured: ${e instanceof Error ? e.message : String(e)}`, versions: doc.version - before };
  }
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as TypingResult;
  return { ...result, versions: doc.version - before };
}

/** With ATTN_BENCH_PROFILE, a profiler of this thread that counts as ours the bundle the extension runs (its dist/extension.js). */
function hostProfiler(): HostProfiler | undefined {
  if (!process.env.ATTN_BENCH_PROFILE) return undefined;
  const ourBundle = vscode.Uri.file(path.join(extension().extensionPath, 'dist', 'extension.js')).toString();
  return new HostProfiler((url) => url === ourBundle);
}

async function benchSpec(a: TestApi, file: string, runs: number): Promise<BenchRow> {
  const doc = await vscode.workspace.openTextDocument(file);
  const before = a.timings().lastShowToPaintMs;
  await vscode.commands.executeCommand('attentionLens.show', doc.uri);
  await until(`the panel to paint ${path.basename(file)}`, () => panelOn(a, doc, 'ready', 0) && a.timings().lastShowToPaintMs !== before, 120_000);
  const switchToPaintMs = a.timings().lastShowToPaintMs;
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
  const panel = await until('the panel on the spec', () => panelOn(a, doc, 'ready', 0));
  await sleep(300);

  let changedAt = 0;
  const listener = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document === doc && e.contentChanges.length) changedAt = performance.now();
  });
  const original = numberToToggle(doc.getText());
  const totalMs: number[] = [];
  const afterDebounceMs: number[] = [];
  const maxStallMs: number[] = [];
  const postMs: number[] = [];
  const analysisMs: number[] = [];
  const changeMs: number[] = [];
  const waitMs: number[] = [];
  const postToPaintMs: number[] = [];
  const drawMs: number[] = [];
  const profiles: HostProfile[] = [];
  const profiler = hostProfiler();
  try {
    for (let run = 0; run <= runs; run++) { // run 0 warms up
      // Break it, as typing does mid-number: a lone minus sign.
      const { offset, text } = numberToToggle(doc.getText());
      await replaceAt(doc, offset, text.length, '-');
      await until(`the error state for v${doc.version}`, () => panelOn(a, doc, 'error'));
      await sleep(350); // past the diagnostics' 250 ms debounce too
      // Fix it with a new number: this edit is measured.
      const value = run % 2 === 0 ? String(Number(original.text) + 0.25) : original.text;
      await profiler?.start();
      a.resetStall();
      const t0 = performance.now();
      await replaceAt(doc, offset, 1, value);
      const version = doc.version;
      await until(`'painted' for v${version}`, () => panelOn(a, doc, 'ready', version), 120_000);
      const t1 = performance.now();
      const profile = await profiler?.stop();
      if (profile && run > 0) profiles.push(profile);
      if (run > 0) {
        maxStallMs.push(a.maxStallMs());
        postMs.push(a.timings().lastPostMs ?? NaN);
        analysisMs.push(a.timings().lastAnalysisMs ?? NaN);
        changeMs.push(changedAt - t0);
        waitMs.push(a.timings().lastWaitMs ?? NaN);
        postToPaintMs.push(a.timings().lastPostToPaintMs ?? NaN);
        drawMs.push(a.timings().lastDrawMs ?? NaN);
        totalMs.push(t1 - t0);
        afterDebounceMs.push(t1 - changedAt - (a.timings().lastWaitMs ?? 0));
      }
      await sleep(200);
    }
  } finally {
    listener.dispose();
    profiler?.dispose();
  }
  // Leave the text as it was (the document stays dirty; the window is thrown away).
  const now = numberToToggle(doc.getText());
  if (now.text !== original.text) await replaceAt(doc, now.offset, now.text.length, original.text);
  let typing: TypingResult | undefined;
  if (process.env.ATTN_BENCH_TYPING) {
    await until('the panel to show the restored text', () => panelOn(a, doc, 'ready', doc.version), 120_000);
    // Room for the edit's whole path after each key, and more: each key is a lone edit, as typed after a pause.
    const sortedTotal = [...totalMs].sort((x, y) => x - y);
    typing = await typeInto(doc, Math.max(600, 3 * (sortedTotal[sortedTotal.length >> 1] ?? 200)));
  }
  const json = JSON.parse(doc.getText()) as { inputs: { tokens: unknown[] }[]; heads?: unknown[] };
  return {
    spec: path.basename(file), tokens: json.inputs[0].tokens.length, heads: json.heads?.length ?? 1, view: panel.view,
    runs, totalMs, afterDebounceMs, switchToPaintMs, messageBytes: a.timings().lastMessageBytes, maxStallMs, postMs, analysisMs,
    changeMs, waitMs, postToPaintMs, drawMs, ...(typing ? { typing } : {}), ...(profiler ? { profiles } : {}),
  };
}

/** Layers, heads and tokens from the bench file's name: `L x H x n - dtype.safetensors` (scripts/bench-vscode.mjs). */
function shapeFromName(file: string): [number, number, number] {
  const m = /^(\d+)x(\d+)x(\d+)-/.exec(path.basename(file));
  if (!m) throw new Error(`${file}: not a bench model file name`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

async function benchModel(a: TestApi, file: string): Promise<ModelBenchRow> {
  const [layers, heads, tokens] = shapeFromName(file);
  const uri = vscode.Uri.file(file).toString();
  const empty: number[] = [];
  for (let i = 0; i < 3; i++) {
    empty.push(await emptyWebviewReady());
    await sleep(200);
  }
  const emptyReadyMs = [...empty].sort((x, y) => x - y)[1];
  const profiler = hostProfiler();
  await profiler?.start();
  a.resetStall();
  await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'attentionLens.model', vscode.ViewColumn.Two);
  const info = await until(`${path.basename(file)}: every head painted`, () => a.modelEditors().find((e) => e.uri === uri && e.fullPaintMs !== undefined && e.scanMs !== undefined), 300_000);
  const maxStallMs = a.maxStallMs();
  const profile = await profiler?.stop();
  profiler?.dispose();
  const headSwitchMs: number[] = [], headReadMs: number[] = [], headDrawMs: number[] = [];
  // Six heads across the model, none shown before.
  for (let k = 1; k <= 6; k++) {
    const flat = (k * 7) % (layers * heads);
    const before = a.modelEditors().find((e) => e.uri === uri)?.lastHeadMs;
    a.showModel(uri, 'head', Math.floor(flat / heads), flat % heads);
    const after = await until('the head view painted', () => {
      const e = a.modelEditors().find((x) => x.uri === uri);
      return e && e.view === 'head' && e.lastHeadMs !== undefined && e.lastHeadMs !== before ? e : undefined;
    }, 60_000);
    headSwitchMs.push(after.lastHeadMs!);
    headReadMs.push(after.lastHeadReadMs ?? NaN);
    headDrawMs.push(after.lastHeadDrawMs ?? NaN);
    await sleep(300);
  }
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  return {
    file: path.basename(file), layers, heads, tokens,
    ...(profile ? { profile } : {}),
    readyMs: info.readyMs ?? NaN, emptyReadyMs, firstPaintMs: info.firstPaintMs ?? NaN, gridDrawMs: info.lastDrawMs ?? NaN, fullPaintMs: info.fullPaintMs ?? NaN, scanMs: info.scanMs ?? NaN, maxStallMs, headSwitchMs, headReadMs, headDrawMs,
  };
}

/** Writes `result` to `file` whole (a reader never sees half of it). */
function writeResult(file: string, result: BenchResult): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(result, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

/**
 * Takes one figure: its row, or, when it cannot be taken (a wait that gave up, a panel that did not
 * paint), the reason in `result.missing`, and the bench goes on. The figures so far are written to
 * `<out>.partial` after each, so the script reports them even if the host stops answering later.
 */
async function take<T>(result: BenchResult, out: string, what: string, measure: () => Promise<T>): Promise<T | undefined> {
  try {
    return await measure();
  } catch (err) {
    (result.missing ??= []).push({ what, why: err instanceof Error ? err.message : String(err) });
    return undefined;
  } finally {
    writeResult(`${out}.partial`, result);
  }
}

export async function run(): Promise<void> {
  const out = process.env.ATTN_BENCH_RESULT || path.join(__dirname, 'bench-result.json');
  const runs = Number(process.env.ATTN_BENCH_RUNS || 10);
  const result: BenchResult = { vscodeVersion: vscode.version, rows: [] };
  try {
    const a = await api();
    if (!extension().isActive) throw new Error('the extension did not activate');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error('no workspace folder');
    // ATTN_BENCH_ONLY=text keeps the specs whose name holds it (for a quick look at one size).
    const only = process.env.ATTN_BENCH_ONLY;
    // The model examples ({ "model", "text" }) run in the model views, not the spec panel timed here.
    const isModelSpec = (f: string) => 'model' in (JSON.parse(fs.readFileSync(path.join(folder, f), 'utf8')) as object);
    const specs = fs.readdirSync(folder).filter((f) => f.endsWith('.attn.json') && !isModelSpec(f) && (!only || f.includes(only))).sort().map((f) => path.join(folder, f));
    // A first panel, on the last spec, so each spec below is a switch from another one.
    // The spec in the first column and the panel beside it, visible (a hidden webview draws nothing).
    // (With ATTN_BENCH_ONLY, the first panel goes on a spec outside the list, so the first measured one is a switch too.)
    const others = fs.readdirSync(folder).filter((f) => f.endsWith('.attn.json') && !isModelSpec(f)).map((f) => path.join(folder, f)).filter((f) => !specs.includes(f));
    result.firstEmptyReadyMs = await emptyWebviewReady();
    await sleep(200);
    const last = await vscode.workspace.openTextDocument(only && others.length > 0 ? others[0] : specs[specs.length - 1]);
    await vscode.window.showTextDocument(last, { viewColumn: vscode.ViewColumn.One, preview: false });
    await vscode.commands.executeCommand('attentionLens.show', last.uri);
    await until('the first panel to paint', () => panelOn(a, last, 'ready', 0), 60_000);
    result.coldShowToPaintMs = a.timings().lastShowToPaintMs;
    result.coldShowToReadyMs = a.timings().lastShowToReadyMs;
    result.emptyWebviewReadyMs = [];
    for (let i = 0; i < 5; i++) {
      result.emptyWebviewReadyMs.push(await emptyWebviewReady());
      await sleep(200);
    }
    for (const file of specs) {
      const row = await take(result, out, path.basename(file), () => benchSpec(a, file, runs));
      if (row) result.rows.push(row);
    }
    if (process.env.ATTN_BENCH_MODELS) {
      result.models = [];
      const models = fs.readdirSync(folder).filter((f) => /^\d+x\d+x\d+-\w+\.safetensors$/.test(f)).sort().map((f) => path.join(folder, f));
      for (const file of models) {
        const row = await take(result, out, path.basename(file), () => benchModel(a, file));
        if (row) result.models.push(row);
        // A model editor left open by a figure not taken would slow the next one.
        else await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      }
    }
  } catch (err) {
    result.error = err instanceof Error ? err.stack ?? err.message : String(err);
  }
  writeResult(out, result);
}
