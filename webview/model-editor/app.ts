// The model page's shell (custom editor webview, the --html page and a notebook output cell): a toolbar (view, statistic,
// sort, layer, head, token, k; for a model run also the lens, weights | norms and head ablation: analysis-bar.ts), a warning line (with "Apply softmax" when rows do not sum to 1), an
// error panel, and the chosen view. Data arrives as checked messages through a transport: the VS
// Code host, or the data embedded in the --html page. Every control is built with textContent,
// never markup. Theme and its changes, resize, focus, tooltip and the message channel are the
// shell base's (webview/shell), as in the panel: a theme switch or a new width redraws the view.
import { thumbnailValues, WHOLE_HEAD_MAX, type ModelHeader, type ModelRunInfo, type ModelViewData } from '../../src/core/model-attention/data.js';
import { hostMessageProblem, type ModelHostMessage, type ModelWebviewMessage } from '../../src/protocol/model-editor.js';
import { STAT_NAMES, type StatName } from '../../src/core/tensors/head-stats.js';
import { rolloutRefusal } from '../../src/core/tensors/rollout.js';
import type { ModelViewName } from '../../src/core/vocabulary.js';
import type { ViewHandle } from '../kit/view.js';
import { clampTo, type ModelPick, type ModelViewOptions } from '../views/model/common.js';
import { MODEL_ENTRIES, modelEntry } from '../views/model-registry.js';
import { STAT_DEFINITIONS } from '../views/model/stat-definitions.js';
import { Shell } from '../shell/shell.js';
import { download, pictureOf } from '../shell/export.js';
import type { Transport } from '../shell/transport.js';
import type { RunAnalyses } from '../../src/core/model-attention/run-analyses.js';
import { generationStep, sameRun, viewData } from './run-analyses.js';
import { AnalysisBar, canAblate } from './analysis-bar.js';
import { TileStore } from '../views/model/map/tile-store.js';
import { tileProblem, type TileAnswer } from '../views/model/map/tile-types.js';
import type { MapHead, MapViewOptions } from '../views/model/map/map-view.js';
import type { KeptMap } from './kept-state.js';

export interface ModelTransport extends Transport<ModelWebviewMessage> {
  /** Whether "Apply softmax" can be offered (the host re-reads the file; the page cannot). */
  canSoftmax: boolean;
  /** Saves an exported picture; the page downloads it, VS Code posts it to the host. */
  save?: (format: 'svg' | 'png', view: string, data: string) => void;
  /** Keeps the view and place chosen, at every drawing (VS Code's webview state, read back by a page made anew). */
  keep?: (state: State) => void;
}

/** Windows of exact weights kept for the shown head (hover blocks of 64 KiB, a zoomed window up to 1 MiB). */
const WINDOWS_KEPT = 24;

/** The views that draw one head's weights (the app asks the host for it). */
const HEAD_VIEWS: ReadonlySet<ModelViewName> = new Set<ModelViewName>(['head', 'head-tokens']);

/** A selector for a view's element by its class and place (layer, head, token, statistic), or undefined. */
function placeSelector(el: Element): string | undefined {
  const attrs = ['data-layer', 'data-head', 'data-token', 'data-side'].filter((n) => el.hasAttribute(n))
    .map((n) => `[${n}="${(el.getAttribute(n) ?? '').replace(/["\\]/g, '')}"]`).join('');
  const cls = el.classList[0];
  return cls && attrs ? `${el.localName}.${cls}${attrs}` : undefined;
}

export interface State { view: ModelViewName; layer: number; head: number; token: number; stat: StatName; sort: boolean; k: number; map?: KeptMap }

export class ModelApp {
  private data: ModelViewData | undefined;
  /** The model run the attention is from (a model spec), kept across its new headers. */
  private run: ModelRunInfo | undefined;
  /** The run's analyses (attribution, patching, generation, the logit lens once asked for). */
  private analyses: RunAnalyses | undefined;
  /** The logit lens was asked of the host for this run. */
  private lensAsked = false;
  private state: State = { view: 'model', layer: 0, head: 0, token: 0, stat: 'entropy', sort: false, k: 3 };
  private handle: ViewHandle | undefined;
  private readonly bar: HTMLElement;
  private readonly warning: HTMLElement;
  private readonly stage: HTMLElement;
  private readonly shell: Shell;
  private pendingHead: string | undefined;
  private rolloutAsked = false;
  /** Why the file cannot be shown (the last error), until a new header comes. */
  private failure: string | undefined;
  /**
   * Where the keyboard goes at the next drawing that has it: a view opened from the keyboard takes the
   * focus on its first control (once it is drawn: a head arrives after its 'loading…'), and going back
   * focuses the element it was opened from.
   */
  private focusNext: { view: ModelViewName; selector?: string } | undefined;
  /** The view and element a view was opened from by the keyboard, for Escape and Backspace. */
  private cameFrom: { view: ModelViewName; selector: string } | undefined;
  /** Where in the view the keyboard was before a drawing that could not put it back (its element not drawn yet). */
  private placeToRestore: string | true | undefined;
  /** A model run's norms switch and head ablation (analysis-bar.ts). */
  private readonly analysis: AnalysisBar;
  /** A big head's tiles, its colour switches and zoom, kept across the head view's redraws. */
  private readonly tiles: TileStore;
  /** Big heads asked again for their map once the scan read them (once each, for this header). */
  private readonly mapAsked = new Set<string>();
  /** Heads shown with a map made before the scan had read them (layer:head). */
  private readonly partialMaps = new Set<string>();

  /**
   * `surface.focusOnArrival`: whether the window's focus (VS Code's Ctrl+2) lands in this app's view
   * (default true; a notebook holds several apps in one window, and the notebook keeps its own focus).
   */
  constructor(private readonly root: HTMLElement, tip: HTMLElement, private readonly transport: ModelTransport, initial: Partial<State> = {}, surface: { focusOnArrival?: boolean } = {}) {
    const doc = root.ownerDocument;
    this.state = { ...this.state, ...initial };
    this.bar = doc.createElement('div');
    this.bar.className = 'toolbar';
    this.warning = doc.createElement('div');
    this.warning.className = 'model-warning';
    this.warning.hidden = true;
    this.stage = doc.createElement('div');
    this.stage.className = 'model-stage';
    // Until the header comes (the host opens the file while this page boots), say what is happening.
    const waiting = doc.createElement('p');
    waiting.className = 'model-loading';
    waiting.textContent = 'Reading the file…';
    this.stage.append(waiting);
    root.replaceChildren(this.bar, this.warning, this.stage);
    // The views take the root's width less its padding: the stage's (a grid drawn 630 px wide for
    // the root overflowed the 606 px stage).
    this.shell = new Shell({ root, tooltip: tip, view: this.stage, sized: root, redraw: () => this.redraw(), focusOnArrival: surface.focusOnArrival !== false });
    root.dataset.state = 'loading';
    this.stage.addEventListener('keydown', (e) => this.onStageKey(e));
    this.analysis = new AnalysisBar(doc, (m) => this.transport.post(m));
    root.addEventListener('keydown', (e) => this.onAnalysisKey(e));
    root.addEventListener('contextmenu', (e) => this.onHeadMenu(e));
    // The tile asks go to the host as they are (the 'tile' message of the protocol).
    this.tiles = new TileStore((ask) => this.transport.post(ask));
    const kept = this.state.map;
    if (kept) {
      this.tiles.settings = { colour: kept.colour, scale: kept.scale };
      if (kept.zoom) this.tiles.zooms.set(`${kept.zoom.layer}:${kept.zoom.head}`, kept.zoom);
    }
    this.tiles.onSettings = () => this.draw(false);
    this.tiles.onZoom = () => this.transport.keep?.(this.kept());
  }

  /** The state VS Code keeps: the toolbar's, and the map's switches and the shown head's zoom. */
  private kept(): State {
    const s = this.state;
    const zoom = this.tiles.zooms.get(`${s.layer}:${s.head}`);
    return { ...s, map: { ...this.tiles.settings, ...(zoom ? { zoom: { layer: s.layer, head: s.head, ...zoom } } : {}) } };
  }

  /** Listens to the transport (when it can be listened to), the theme and the width, then says 'ready'. */
  start(): void {
    this.shell.start(this.transport, (m) => this.receive(m));
    this.transport.post({ type: 'ready' });
  }

  dispose(): void {
    this.shell.dispose();
    this.handle?.destroy();
  }

  /** One message from the host (or the page's data), checked before anything is drawn. */
  receive(message: unknown): void {
    const problem = hostMessageProblem(message, this.data?.header);
    if (problem) { this.fail(`Attention Lens could not use a message: ${problem}`); return; }
    const m = message as ModelHostMessage;
    switch (m.type) {
      // The host's errors are about reading the file (or running the model spec): every view says
      // so until the file is read again. The page's own "could not use a message" is shown once only.
      case 'error': this.failure = m.message; this.fail(m.message); return;
      case 'run': {
        const { model, next, forwardMs, masked, note, precision, ablation } = m;
        const run = { model, next, forwardMs, ...(masked ? { masked } : {}), ...(note !== undefined ? { note } : {}), ...(precision ? { precision } : {}), ...(ablation ? { ablation } : {}) };
        // A new run's logit lens is asked for again (the same run's, told again when its views reopen, is kept).
        if (!this.run || !sameRun(this.run, run)) { this.lensAsked = false; if (this.analyses) this.analyses = { ...this.analyses, logitLens: undefined, logitLensError: undefined }; }
        this.run = run;
        this.analysis.ran(this.run);
        if (!this.data) return;
        break;
      }
      case 'analyses': {
        const { type: _type, ...told } = m;
        const lens = this.analyses ? { ...(this.analyses.logitLens ? { logitLens: this.analyses.logitLens } : {}), ...(this.analyses.logitLensError !== undefined ? { logitLensError: this.analyses.logitLensError } : {}) } : {};
        this.analyses = { ...told, ...lens };
        if (!this.data) return;
        break;
      }
      case 'logitLens': {
        if (!this.analyses) return;
        this.analyses = { ...this.analyses, ...(m.lens ? { logitLens: m.lens } : {}), ...(m.error !== undefined ? { logitLensError: m.error } : {}) };
        if (!this.data) return;
        break;
      }
      case 'model': {
        const { header } = m;
        // Colour indices (the editor's message): kept too, and the grid draws them as they are.
        const indices = m.thumbnails instanceof Uint8Array ? m.thumbnails.slice() : undefined;
        this.data = { header, thumbnails: indices ? thumbnailValues(indices) : m.thumbnails as Float32Array, ...(indices ? { thumbIndices: indices } : {}) };
        this.pendingHead = undefined;
        this.rolloutAsked = false;
        this.failure = undefined;
        this.tiles.reset();
        this.mapAsked.clear();
        this.partialMaps.clear();
        this.state.layer = clampTo(this.state.layer, header.layers);
        this.state.head = clampTo(this.state.head, header.heads);
        this.state.token = Number.isInteger(this.state.token) && this.state.token > 0 && this.state.token < header.tokens ? this.state.token : header.tokens - 1;
        break;
      }
      case 'scanned': {
        // More heads read, in order: their statistics and thumbnails join what is drawn.
        if (!this.data) return;
        this.failure = undefined; // the file is read again
        const { header, thumbnails, thumbIndices } = this.data;
        const at = m.from * header.thumb ** 2;
        thumbnails.set(m.thumbnails instanceof Uint8Array ? thumbnailValues(m.thumbnails) : m.thumbnails, at);
        // Values where indices were kept: the grid makes every thumbnail from the values again.
        if (thumbIndices && m.thumbnails instanceof Uint8Array) thumbIndices.set(m.thumbnails, at);
        else delete this.data.thumbIndices;
        this.data = { ...this.data, header: { ...header, stats: [...header.stats, ...m.stats], offRows: m.offRows, warnings: m.warnings } };
        this.askMapOnce();
        break;
      }
      case 'head': {
        // A big head comes with its map (levels, sinks, the two scales) once the scan has reached it.
        const { layer, head, weights, picture, max, valueNorms, map } = m;
        this.failure = undefined; // the file is read again
        const shown: MapHead = { layer, head, ...(weights ? { weights } : {}), ...(picture ? { picture } : {}), ...(max !== undefined ? { max } : {}), ...(valueNorms ? { valueNorms } : {}), ...(map ? { map } : {}), windows: [] };
        // A map sent while the scan was still reading this head holds only the bands read so far
        // (blank below, its scales too low): asked again once the scan has read the head.
        const key = `${layer}:${head}`;
        if (map && this.data && layer * this.data.header.heads + head >= this.data.header.stats.length) this.partialMaps.add(key);
        else this.partialMaps.delete(key);
        if (this.data) this.data = { ...this.data, head: shown };
        this.pendingHead = undefined;
        break;
      }
      case 'window': {
        // Exact weights of part of the shown head: kept beside it (a few), shown without a redraw.
        const shown = this.data?.head;
        if (!shown || shown.layer !== m.layer || shown.head !== m.head) return;
        const { i0, j0, rows, cols, weights } = m;
        shown.windows = [{ i0, j0, rows, cols, weights }, ...(shown.windows ?? [])].slice(0, WINDOWS_KEPT);
        this.handle?.refresh?.();
        return;
      }
      case 'tile':
        this.receiveTile(m);
        return;
      case 'show':
        this.pick({ view: m.view, layer: m.layer, head: m.head });
        return;
      case 'rollout': {
        const r = m.rollout;
        if (this.data) this.data = { ...this.data, ...(r ? { rollout: r } : {}) };
        break;
      }
    }
    this.draw();
  }

  /**
   * A big head shown before the scan reached it came as its picture alone: once the scan has read it,
   * it is asked again (once) for its map, so the view becomes the map without the user asking.
   */
  private askMapOnce(): void {
    const data = this.data, shown = data?.head as MapHead | undefined;
    if (!data || !shown?.picture || data.header.tokens <= WHOLE_HEAD_MAX) return;
    const key = `${shown.layer}:${shown.head}`, partial = this.partialMaps.has(key);
    if (shown.map && !partial) return;
    if (shown.layer * data.header.heads + shown.head >= data.header.stats.length) return;
    if (this.mapAsked.has(key)) return;
    this.mapAsked.add(key);
    // The tiles drawn from the part read are forgotten: the whole head's are asked anew.
    if (partial) this.tiles.reset();
    this.pendingHead = key;
    this.transport.post({ type: 'head', layer: shown.layer, head: shown.head });
  }

  /**
   * A tile of the shown big head, for the head view to draw (no redraw: the view paints it in place).
   * One of a head no longer shown, not asked for, or not fitting the map shown is dropped: a new run's
   * tile can come while the page still shows the old run's map (other sinks, another n), and the
   * map drawn is still right, so it is no error.
   */
  private receiveTile(m: TileAnswer): void {
    const shown = this.data?.head as MapHead | undefined;
    if (!shown?.map || m.layer !== shown.layer || m.head !== shown.head) { this.tiles.dropped++; return; }
    if (tileProblem(m as unknown as Record<string, unknown>, shown.map)) { this.tiles.dropped++; return; }
    this.tiles.receive(m);
  }

  /** A sentence on the warning line (the page cannot answer some requests). */
  note(text: string): void {
    this.warning.hidden = false;
    const span = this.root.ownerDocument.createElement('span');
    span.textContent = text;
    this.warning.replaceChildren(span);
  }

  private fail(message: string): void {
    this.handle?.destroy();
    this.handle = undefined;
    const doc = this.root.ownerDocument;
    const panel = doc.createElement('div');
    panel.className = 'problems model-error';
    panel.setAttribute('role', 'alert');
    const title = doc.createElement('strong');
    title.textContent = 'This file cannot be shown';
    const text = doc.createElement('p');
    text.textContent = message;
    panel.append(title, text);
    this.stage.replaceChildren(panel);
    this.root.dataset.state = 'error';
    this.transport.post({ type: 'painted', view: 'error', items: 0, drawMs: 0 });
  }

  private pick(p: ModelPick): void {
    // A view opened from inside the stage by the keyboard (Enter on a head) takes the focus, and
    // Escape or Backspace goes back to where it came from.
    const doc = this.root.ownerDocument;
    const a = doc.activeElement;
    if (p.view && p.view !== this.state.view && a && this.stage.contains(a)) {
      const selector = placeSelector(a);
      this.cameFrom = selector ? { view: this.state.view, selector } : undefined;
      this.focusNext = { view: p.view };
    } else if (p.view) {
      // Chosen elsewhere (the toolbar, the host): the keyboard stays where it is.
      this.focusNext = undefined;
      this.cameFrom = undefined;
    }
    Object.assign(this.state, Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)));
    this.draw();
  }

  /** Escape or Backspace in a view opened from another: back to that view, on the element it was opened from. */
  private onStageKey(e: KeyboardEvent): void {
    if (e.key !== 'Escape' && e.key !== 'Backspace') return;
    const target = e.target as Element | null;
    if (target?.closest?.('input, select, textarea')) return;
    const s = this.state;
    if (s.view === 'model') return;
    e.preventDefault();
    // Back to the grid, on the shown head, when the view was not opened from another by the keyboard.
    const back = this.cameFrom ?? { view: 'model' as ModelViewName, selector: `g.head-cell[data-layer="${s.layer}"][data-head="${s.head}"]` };
    this.cameFrom = undefined;
    this.focusNext = back;
    Object.assign(this.state, { view: back.view });
    this.draw();
  }

  /**
   * A model run's keys: n switches weights and norms, a ablates (or restores) the focused head (the
   * shown one in a head view), Ctrl+Z undoes the last ablation toggle. Not while typing in a control.
   */
  private onAnalysisKey(e: KeyboardEvent): void {
    const data = this.data;
    if (!this.run || !data || e.altKey || (e.target as Element | null)?.closest?.('input, select, textarea')) return;
    const undo = (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z';
    if (undo) {
      if (this.analysis.undoLast()) { e.preventDefault(); this.draw(); }
      return;
    }
    if (e.ctrlKey || e.metaKey) return;
    if (e.key === 'n') {
      e.preventDefault();
      this.analysis.switchNorms(data.header);
    } else if (e.key === 'a') {
      const h = this.headAt(e.target as Element | null);
      if (!h) return;
      e.preventDefault();
      this.analysis.toggle(this.run, h);
      this.draw();
    }
  }

  /** A right click on a head's thumbnail ablates it, or restores it (the context action). */
  private onHeadMenu(e: MouseEvent): void {
    const cell = (e.target as Element | null)?.closest?.('g.head-cell');
    if (!canAblate(this.run) || !cell) return;
    e.preventDefault();
    this.analysis.toggle(this.run, { layer: Number(cell.getAttribute('data-layer')), head: Number(cell.getAttribute('data-head')) });
    this.draw();
  }

  /** The head a key acts on: the focused thumbnail's, else the head view's. */
  private headAt(target: Element | null): { layer: number; head: number } | undefined {
    const cell = target?.closest?.('g.head-cell');
    if (cell) return { layer: Number(cell.getAttribute('data-layer')), head: Number(cell.getAttribute('data-head')) };
    return HEAD_VIEWS.has(this.state.view) ? { layer: this.state.layer, head: this.state.head } : undefined;
  }

  /** Puts the focus where focusNext says, once the view it names is drawn with a place to take it. */
  private placeFocus(): boolean {
    const want = this.focusNext;
    if (!want || want.view !== this.state.view) return false;
    // Nothing to focus yet (a head still loading): the next drawing tries again.
    if (!(want.selector && this.focusAt(want.selector)) && !this.shell.focusView()) return false;
    this.focusNext = undefined;
    return true;
  }

  /** Focuses the view's element `selector` finds (in a roving grid, it becomes its grid's one tab stop); false when there is none. */
  private focusAt(selector: string): boolean {
    const el = this.stage.querySelector<HTMLElement>(selector);
    if (!el) return false;
    el.parentElement?.querySelectorAll('[tabindex="0"]').forEach((o) => o.removeAttribute('tabindex'));
    el.setAttribute('tabindex', '0');
    el.focus();
    return true;
  }

  /** After a theme change or a resize: the shown view again (not over an error, nor while the file is read again). */
  private redraw(): void {
    if (this.handle && this.root.dataset.state === 'ready') this.draw(false);
  }

  /** Draws the toolbar and the view; `announce` says whether to post 'painted' (not for resizes and theme changes). */
  private draw(announce = true): void {
    const data = this.data;
    if (!data) return;
    this.transport.keep?.(this.kept());
    // A view chosen while the file cannot be shown (a model spec broken since its last run) says so at
    // once, rather than drawing the old run or asking the host for a head it cannot read.
    if (this.failure !== undefined) {
      const refocus = this.shell.keepFocus();
      this.drawBar(data.header);
      this.fail(this.failure);
      refocus?.();
      return;
    }
    const started = performance.now();
    // Keyboard users keep their place: the focused control, head or column is focused again after the redraw.
    // A place the last drawing did not have (a run's heads read again after an ablation: none drawn until
    // they come) is tried again while the keyboard is nowhere else in the page.
    // Found by its place alone (a thumbnail's data-stat changes when the norms switch or a run's
    // statistics do, and the shell's selector carries it).
    const doc = this.root.ownerDocument;
    const nowhere = () => !doc.activeElement || doc.activeElement === doc.body || doc.activeElement === this.root;
    const active = doc.activeElement;
    // A view element without a place of its own (a head's cell) keeps the keyboard in the view: `true`.
    const place = (active && this.stage.contains(active) ? placeSelector(active) ?? true : undefined) ?? (nowhere() ? this.placeToRestore : undefined);
    const refocus = this.shell.keepFocus();
    const { header } = data;
    this.drawBar(header);
    this.drawWarning(header);
    const s = this.state;
    if (HEAD_VIEWS.has(s.view) && (data.head?.layer !== s.layer || data.head?.head !== s.head)) {
      const key = `${s.layer}:${s.head}`;
      if (this.pendingHead !== key) { this.pendingHead = key; this.transport.post({ type: 'head', layer: s.layer, head: s.head }); }
    }
    // The next-token view at a step of a generation reads the lens's last layer (the run's own five are of its end).
    if ((s.view === 'logit-lens' || (s.view === 'next' && this.analyses && this.analyses.shown < this.analyses.positions)) && this.run && this.analyses && !this.analyses.logitLens && this.analyses.logitLensError === undefined && !this.lensAsked) {
      this.lensAsked = true;
      this.transport.post({ type: 'logitLens' });
    }
    if (s.view === 'rollout' && !data.rollout && !this.rolloutAsked && rolloutRefusal(header.layers, header.tokens) === undefined) {
      this.rolloutAsked = true;
      this.transport.post({ type: 'rollout' });
    }
    const own = data.head && data.head.layer === s.layer && data.head.head === s.head ? data : { header: data.header, thumbnails: data.thumbnails, ...(data.thumbIndices ? { thumbIndices: data.thumbIndices } : {}), ...(data.rollout ? { rollout: data.rollout } : {}) };
    const showHead = viewData(this.run ? { ...own, run: this.run } : own, this.analyses);
    this.handle?.destroy();
    this.stage.replaceChildren();
    const options: ModelViewOptions & MapViewOptions = {
      tiles: this.tiles,
      theme: this.shell.theme(), interactive: true, tooltip: this.shell.tooltip,
      layer: s.layer, head: s.head, token: s.token, stat: s.stat, sort: s.sort, k: s.k,
      onPick: (p) => this.pick(p),
      askWindow: (layer, head, i0, rows, j0, cols) => this.transport.post({ type: 'window', layer, head, i0, rows, j0, cols }),
      ...(canAblate(this.run) ? { ablated: this.analysis.ablation(this.run).heads } : {}),
      // The width the stage gives: the root's less its padding (jsdom lays nothing out: 0 padding).
      width: Math.max(320, this.shell.width(320, 900) - this.padding()),
    };
    this.handle = modelEntry(s.view)!.render(this.stage, showHead, options);
    const items = this.handle.svg.querySelectorAll('g.head-cell, rect.cell, image.heatmap, g.head-row, rect.bar').length;
    this.shell.drew();
    this.root.dataset.state = 'ready';
    this.root.dataset.view = s.view;
    if (!this.placeFocus()) refocus?.();
    if (place !== undefined && nowhere() && !(typeof place === 'string' && this.focusAt(place))) this.shell.focusView();
    this.placeToRestore = place !== undefined && nowhere() ? place : undefined;
    if (announce) this.transport.post({ type: 'painted', view: s.view, items, drawMs: performance.now() - started });
  }

  /** The root's horizontal padding in px (the stage is the root less it). */
  private padding(): number {
    const win = this.root.ownerDocument.defaultView;
    if (!win) return 0;
    const style = win.getComputedStyle(this.root);
    return (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
  }

  private drawBar(header: ModelHeader): void {
    const doc = this.root.ownerDocument;
    const s = this.state;
    const select = (label: string, values: readonly (string | { name: string; title: string })[], value: string, set: (v: string) => void) => {
      const wrap = doc.createElement('label');
      wrap.textContent = `${label} `;
      const el = doc.createElement('select');
      el.dataset.control = label;
      for (const item of values) {
        const v = typeof item === 'string' ? item : item.name;
        const o = doc.createElement('option');
        o.value = v; o.textContent = v; o.selected = v === value;
        if (typeof item !== 'string') o.title = item.title;
        el.append(o);
      }
      el.addEventListener('change', () => set(el.value));
      wrap.append(el);
      return wrap;
    };
    // Layers, heads and tokens are counted from 1 here as in the views; `count` of them.
    const number = (label: string, value: number, count: number, set: (v: number) => void, from = 1) => {
      const wrap = doc.createElement('label');
      wrap.textContent = `${label} `;
      const el = doc.createElement('input');
      el.type = 'number'; el.min = String(from); el.max = String(count - 1 + from); el.value = String(value + from);
      el.dataset.control = label;
      el.addEventListener('change', () => { const v = Number(el.value) - from; if (Number.isInteger(v) && v >= 0 && v < count) set(v); });
      wrap.append(el);
      return wrap;
    };
    const sort = doc.createElement('label');
    const box = doc.createElement('input');
    box.type = 'checkbox'; box.checked = s.sort;
    box.dataset.control = 'sort';
    box.addEventListener('change', () => this.pick({ sort: box.checked }));
    sort.append(box, doc.createTextNode(' sort'));
    this.bar.replaceChildren(
      select('view', MODEL_ENTRIES, s.view, (v) => this.pick({ view: v as ModelViewName })),
      select('statistic', STAT_NAMES.map((k) => ({ name: k, title: STAT_DEFINITIONS[k] })), s.stat, (v) => this.pick({ stat: v as StatName })),
      sort,
      number('layer', s.layer, header.layers, (v) => this.pick({ layer: v })),
      number('head', s.head, header.heads, (v) => this.pick({ head: v })),
      number('token', s.token, header.tokens, (v) => this.pick({ token: v })),
      number('k', s.k, 17, (v) => this.pick({ k: Math.max(1, v) } as ModelPick), 0),
      ...this.stepSlider(header),
      ...this.lensButtons(),
      ...this.analysis.controls(this.run, header, { layer: s.layer, head: s.head }, () => this.draw()),
      this.exportButton('svg'),
      this.exportButton('png'),
    );
  }

  /**
   * A run with generated tokens: a slider through them (the arrows step it), the views showing the
   * run up to that token. Each step reads the run's prefix again (the host reopens its attention).
   */
  private stepSlider(header: ModelHeader): HTMLElement[] {
    const step = this.analyses ? generationStep(this.analyses, header.tokens) : undefined;
    if (!step) return [];
    const doc = this.root.ownerDocument;
    const wrap = doc.createElement('label');
    wrap.className = 'generation-step';
    const slider = doc.createElement('input');
    slider.type = 'range';
    slider.min = String(step.from); slider.max = String(step.to); slider.step = '1'; slider.value = String(step.shown);
    slider.dataset.control = 'step';
    slider.setAttribute('aria-label', 'generated tokens shown');
    slider.setAttribute('aria-valuetext', step.says);
    const says = doc.createElement('span');
    says.className = 'step-says';
    says.textContent = step.says;
    const go = (tokens: number) => {
      if (tokens < step.from || tokens > step.to || tokens === step.shown) return;
      this.root.dataset.state = 'loading';
      this.transport.post({ type: 'step', tokens });
    };
    slider.addEventListener('change', () => go(Number(slider.value)));
    // The arrows step one token, in every webview alike (a range input's own keys change its value
    // without a 'change' in some), and the step is asked for at once.
    slider.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      go(step.shown + (e.key === 'ArrowRight' ? 1 : -1));
    });
    wrap.append(doc.createTextNode('generated '), slider, says);
    return [wrap];
  }

  /**
   * A model run's head, at the chosen token, in the spec views (the lens on a real head): opened at
   * once, or saved as a spec first. Only a run has the weights behind its attention; a file has not.
   */
  private lensButtons(): HTMLButtonElement[] {
    if (!this.run) return [];
    const doc = this.root.ownerDocument;
    const button = (text: string, title: string, save: boolean) => {
      const b = doc.createElement('button');
      b.textContent = text;
      b.title = title;
      b.dataset.control = save ? 'save-lens' : 'open-lens';
      b.addEventListener('click', () => this.transport.post({ type: 'lens', layer: this.state.layer, head: this.state.head, token: this.state.token, save }));
      return b;
    };
    return [
      button('Open in the lens', 'this head\'s W_Q, W_K, W_V, its q, k and v at the chosen token, in the spec views', false),
      button('Save head as spec…', 'write this head as an .attn.json (its numbers in a tensor file beside it) and open it', true),
    ];
  }

  private exportButton(format: 'svg' | 'png'): HTMLButtonElement {
    const button = this.root.ownerDocument.createElement('button');
    button.textContent = `Export ${format.toUpperCase()}`;
    button.addEventListener('click', () => { void this.exportPicture(format); });
    return button;
  }

  /** The shown view as a standalone SVG, or a PNG drawn from it, handed to the transport. */
  async exportPicture(format: 'svg' | 'png'): Promise<void> {
    if (!this.handle) return;
    const doc = this.root.ownerDocument;
    const data = await pictureOf(this.handle, doc, format);
    const view = this.state.view;
    if (this.transport.save) { this.transport.save(format, view, data); return; }
    download(doc, `attention.${view}.${format}`, format, data);
  }

  private drawWarning(header: ModelHeader): void {
    const doc = this.root.ownerDocument;
    // Each warning once (the grid no longer repeats them under itself).
    const lines = [...new Set(header.warnings), ...(header.softmaxed ? ['the softmax was applied to every row of this file'] : [])];
    this.warning.hidden = lines.length === 0;
    const text = doc.createElement('span');
    text.textContent = lines.join(' · ');
    const parts: Node[] = [text];
    if (header.offRows > 0 && !header.softmaxed && this.transport.canSoftmax) {
      const button = doc.createElement('button');
      button.textContent = 'Apply softmax';
      button.addEventListener('click', () => { this.root.dataset.state = 'loading'; this.transport.post({ type: 'softmax' }); });
      parts.push(button);
    }
    this.warning.replaceChildren(...parts);
  }
}
