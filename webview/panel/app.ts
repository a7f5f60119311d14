// The panel shell: the toolbar (view, input, head, token, matrix mode, projection matrix), the
// summary strip, the problems list and the view itself. It checks every host message, draws on
// 'render' and answers 'rendered', keeps the last good picture dimmed on 'problems', exports on
// 'exportRequest', and remembers its state across reloads.
import type { AttentionData } from '../../src/core/result/attention-data.js';
import type { HostMessage, PanelProblem, ViewName, WebviewMessage } from '../../src/protocol/panel.js';
import { makeTheme, themeFromDocument, type Theme } from '../kit/colour.js';
import { standaloneSvg, svgToPng } from '../kit/export.js';
import { rovingGrid } from '../kit/keyboard.js';
import { MATRIX_MODES, MODE_MENU } from '../../src/core/vocabulary.js';
import { readHostMessage } from '../../src/protocol/host-message-check.js';
import { clampState, restoreState, toPanelState, type UiState } from './state.js';
import { Tooltip } from '../kit/tooltip.js';
import { REGISTRY, VIEWS, VIEW_TITLES, viewEntry } from '../views/registry.js';
import { resolveSelection } from '../views/spec/selection.js';
import type { MatrixMode, RevealTarget, Role, ViewHandle } from '../kit/view.js';

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

type Status = 'loading' | 'ready' | 'error';

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export class App {
  private readonly doc: Document;
  private readonly tooltip: Tooltip;
  private state: UiState;
  private data?: AttentionData;
  private documentUri: string;
  private fileName: string;
  private version = 0;
  private status: Status = 'loading';
  private handle?: ViewHandle;
  private summary?: ViewHandle;
  private lastWidth = 0;
  /** The document and version whose linear-algebra numbers were asked for. */
  private asked = '';
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly cleanups: (() => void)[] = [];

  private readonly titleEl: HTMLElement;
  private readonly fileEl: HTMLElement;
  private readonly lockEl: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly tabs: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly summaryEl: HTMLElement;
  private readonly problemsEl: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly viewEl: HTMLElement;

  constructor(private readonly root: HTMLElement, tooltipEl: HTMLElement, private readonly api: VsCodeApi) {
    this.doc = root.ownerDocument;
    this.tooltip = new Tooltip(tooltipEl);
    this.documentUri = root.dataset.documentUri ?? '';
    this.fileName = root.dataset.fileName ?? '';
    const saved = api.getState() as { documentUri?: string } | undefined;
    let initial: unknown = saved && (!this.documentUri || saved.documentUri === this.documentUri) ? saved : undefined;
    if (!initial && root.dataset.panelState) {
      try { initial = JSON.parse(root.dataset.panelState); } catch { initial = undefined; }
    }
    this.state = restoreState(initial);
    if (root.dataset.locked === 'true') this.state.locked = true;

    const d = this.doc;
    const header = el(d, 'header', { class: 'al-header' });
    this.titleEl = el(d, 'h1', { class: 'al-title' }, 'Attention Lens');
    this.fileEl = el(d, 'span', { class: 'al-file' }, this.fileName);
    this.lockEl = el(d, 'span', { class: 'al-lock', title: 'This panel stays on its document' }, 'locked');
    this.lockEl.hidden = !this.state.locked;
    header.append(this.titleEl, this.fileEl, this.lockEl);
    this.toolbar = el(d, 'nav', { class: 'al-toolbar', 'aria-label': 'View options' });
    this.tabs = el(d, 'div', { class: 'al-tabs', role: 'tablist', 'aria-label': 'View' });
    this.controls = el(d, 'div', { class: 'al-controls' });
    this.toolbar.append(this.tabs, this.controls);
    this.summaryEl = el(d, 'div', { id: 'attention-summary', class: 'al-summary' });
    this.problemsEl = el(d, 'ul', { id: 'attention-problems', class: 'al-problems', 'aria-label': 'Problems in the spec' });
    this.problemsEl.hidden = true;
    this.statusEl = el(d, 'p', { id: 'attention-status', class: 'al-status', role: 'status' }, 'Waiting for a spec…');
    this.viewEl = el(d, 'div', { id: 'attention-view', class: 'al-view' });
    root.replaceChildren(header, this.toolbar, this.summaryEl, this.problemsEl, this.statusEl, this.viewEl);
    this.setStatus('loading');
    this.buildTabs();
  }

  /** Listens to the host, the window size and the theme, then says 'ready'. */
  start(): void {
    const win = this.doc.defaultView!;
    const onMessage = (e: MessageEvent) => this.receive(e.data);
    win.addEventListener('message', onMessage);
    this.cleanups.push(() => win.removeEventListener('message', onMessage));
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') this.tooltip.hide(); };
    this.doc.addEventListener('keydown', onKey);
    // Ctrl+2 is VS Code's "focus the second editor group": the workbench focuses the webview's
    // window and nothing in it, so the keyboard landed on the page and Tab walked the whole toolbar
    // first. With nothing focused, the view's first control takes the focus; a click chose its
    // own place (pointerdown comes just before the window's focus), and a place already focused is kept.
    let pointerAt = -Infinity;
    const onPointer = () => { pointerAt = performance.now(); };
    const onFocus = () => {
      if (performance.now() - pointerAt < 500) return;
      const a = this.doc.activeElement;
      if (a && a !== this.doc.body && a !== this.root && this.root.contains(a)) return;
      this.focusView();
    };
    this.doc.addEventListener('pointerdown', onPointer, true);
    win.addEventListener('focus', onFocus);
    this.cleanups.push(() => {
      this.doc.removeEventListener('keydown', onKey);
      this.doc.removeEventListener('pointerdown', onPointer, true);
      win.removeEventListener('focus', onFocus);
    });
    if ('ResizeObserver' in win) {
      const ro = new win.ResizeObserver(() => {
        const w = this.viewEl.clientWidth;
        if (Math.abs(w - this.lastWidth) > 4) this.scheduleRedraw();
      });
      ro.observe(this.viewEl);
      this.cleanups.push(() => ro.disconnect());
    }
    // VS Code changes the body's classes and CSS variables when the colour theme changes.
    const mo = new win.MutationObserver(() => this.scheduleRedraw());
    mo.observe(this.doc.body, { attributes: true, attributeFilter: ['class', 'style'] });
    mo.observe(this.doc.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
    this.cleanups.push(() => mo.disconnect());
    this.api.postMessage({ type: 'ready' });
  }

  receive(message: unknown): void {
    const checked = readHostMessage(message);
    if ('why' in checked) {
      console.warn(`Attention Lens: rejected a message (${checked.why})`);
      this.showRejected(checked.why);
      return;
    }
    this.handle_(checked.message, checked.data);
  }

  /**
   * A message from the host failed its check: say so on screen, never a silent 'loading' or a
   * picture that looks current. The last good picture, if any, stays dimmed; the next good
   * 'render' clears the error.
   */
  private showRejected(why: string): void {
    this.setStatus('error');
    const reason = why.length > 300 ? `${why.slice(0, 300)}…` : why;
    this.statusEl.textContent = `The result could not be shown: ${reason || 'the message was malformed'}.`
      + (this.handle ? ' The last good picture is shown dimmed.' : '');
    this.statusEl.hidden = false;
    this.root.dataset.error = 'rejected';
  }

  private handle_(message: HostMessage, decoded?: AttentionData): void {
    switch (message.type) {
      case 'render': {
        if (!decoded) return;
        const newDoc = message.documentUri !== this.documentUri;
        this.documentUri = message.documentUri;
        this.fileName = message.fileName;
        this.version = message.version;
        this.data = decoded;
        if (newDoc) this.state = { ...this.state, input: 0, token: -1, hiddenHeads: [] };
        this.state = clampState(this.state, this.data);
        this.showProblems(message.warnings);
        this.setStatus('ready');
        this.draw();
        return;
      }
      case 'problems':
        if (message.documentUri !== this.documentUri) {
          // Another document's problems: the old picture, title and controls belong to a different file.
          this.clearView();
        }
        this.documentUri = message.documentUri;
        this.fileName = message.fileName;
        this.fileEl.textContent = message.fileName;
        this.showProblems(message.problems);
        this.setStatus('error');
        return;
      case 'exportRequest':
        void this.export(message.requestId, message.format, message.theme);
        return;
      case 'linalg':
        // The numbers a view asked for: only for the version drawn now.
        if (!this.data || message.documentUri !== this.documentUri || message.version !== this.version) return;
        this.data = { ...this.data, linalg: message.linalg };
        this.draw(false);
        return;
      case 'progress':
        // Only for the document shown, and only while its picture is not yet current.
        if (message.documentUri !== this.documentUri || message.version <= this.version) return;
        this.statusEl.hidden = false;
        this.statusEl.textContent = `Computing: ${message.done} of ${message.total} heads…`;
        return;
      case 'lock':
        this.state.locked = message.locked;
        this.lockEl.hidden = !message.locked;
        this.save(false);
        return;
    }
  }

  private setStatus(status: Status): void {
    this.status = status;
    this.root.dataset.state = status;
    delete this.root.dataset.error;
    const text = status === 'loading' ? 'Waiting for a spec…'
      : status === 'error' ? (this.handle ? 'The spec has problems: the last good picture is shown dimmed.' : 'No picture yet: fix the problems listed above.')
      : '';
    this.statusEl.textContent = text;
    this.statusEl.hidden = text === '';
    this.viewEl.setAttribute('aria-disabled', String(status === 'error'));
  }

  /** Forgets the picture and everything drawn from it: the title, the input/head/token controls, the summary. */
  private clearView(): void {
    this.handle?.destroy();
    this.handle = undefined;
    this.summary?.destroy();
    this.summary = undefined;
    this.data = undefined;
    this.viewEl.replaceChildren();
    this.summaryEl.replaceChildren();
    this.controls.replaceChildren();
    this.titleEl.textContent = 'Attention Lens';
  }

  private showProblems(problems: readonly PanelProblem[]): void {
    const d = this.doc;
    this.problemsEl.replaceChildren(...problems.map((p) => {
      const li = el(d, 'li', { class: `al-problem ${p.severity}` });
      const b = el(d, 'button', { type: 'button', class: 'al-problem-link', title: 'Show this place in the spec' });
      const where = el(d, 'span', { class: 'al-where' }, `${p.line}:${p.column}`);
      const sev = el(d, 'span', { class: 'al-severity' }, p.severity === 'error' ? 'error' : 'warning');
      const msg = el(d, 'span', { class: 'al-message' }, `${p.path ? `${p.path}: ` : ''}${p.message}`);
      b.append(sev, where, msg);
      b.addEventListener('click', () => this.reveal({ kind: 'position', line: p.line, column: p.column }));
      li.append(b);
      return li;
    }));
    this.problemsEl.hidden = problems.length === 0;
  }

  private reveal(target: RevealTarget): void {
    this.api.postMessage({ type: 'reveal', documentUri: this.documentUri, target });
  }

  private scheduleRedraw(): void {
    if (this.redrawTimer !== undefined) clearTimeout(this.redrawTimer);
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      if (this.data && this.status !== 'loading') this.draw(false);
    }, 60);
  }

  /** A change made by the user: remembered, told to the host, drawn. */
  private commit(change: Partial<UiState>): void {
    this.state = { ...this.state, ...change };
    if (this.data) this.state = clampState(this.state, this.data);
    this.save(true);
    this.draw();
  }

  private save(tellHost: boolean): void {
    const token = this.resolvedToken().token;
    this.api.setState({ ...this.state, documentUri: this.documentUri });
    if (tellHost && this.documentUri) this.api.postMessage({ type: 'state', state: toPanelState(this.state, this.documentUri, token) });
  }

  private resolvedToken(): { input: number; token: number } {
    if (!this.data) return { input: this.state.input, token: Math.max(0, this.state.token) };
    return resolveSelection(this.data, this.state.view, this.state);
  }

  private theme(): Theme {
    return themeFromDocument(this.doc);
  }

  /** Draws the current view; `announce` says whether to post 'rendered' (not for resizes and theme changes). */
  draw(announce = true): void {
    const data = this.data;
    if (!data) return;
    const t0 = performance.now();
    const theme = this.theme();
    this.titleEl.textContent = data.title ?? 'Attention Lens';
    this.fileEl.textContent = this.fileName;
    const pick = this.resolvedToken();
    if (this.state.token < 0 && this.state.view === 'compare') this.state.input = pick.input;
    // Keyboard users keep their place: the focused control or element is focused again after the redraw.
    const refocus = this.focusKey();
    this.buildControls(data, pick.token);
    this.tooltip.hide();
    this.handle?.destroy();
    this.summary?.destroy();
    this.viewEl.replaceChildren();
    this.summaryEl.replaceChildren();
    const width = Math.max(280, this.viewEl.clientWidth || this.root.clientWidth || 800);
    this.lastWidth = this.viewEl.clientWidth;
    const options = {
      theme, width, head: this.state.head, input: this.state.input, token: pick.token,
      matrixMode: this.state.matrixMode, projection: this.state.projection, hiddenHeads: this.state.hiddenHeads,
      interactive: true, tooltip: this.tooltip,
      onReveal: (t: RevealTarget) => this.reveal(t),
      onPick: (c: Partial<UiState>) => this.commit(c),
    };
    // A view that needs what the result lacks asks the host, once per version, and says it is working.
    const needs = viewEntry(this.state.view)?.needs;
    if (needs === 'linalg' && !data.linalg && this.asked !== `${this.documentUri}#${this.version}`) {
      this.asked = `${this.documentUri}#${this.version}`;
      this.api.postMessage({ type: 'need', documentUri: this.documentUri, version: this.version, what: 'linalg' });
    }
    try {
      this.summary = VIEWS.summary(this.summaryEl, data, { ...options, width: Math.max(280, this.summaryEl.clientWidth || width) });
      this.handle = VIEWS[this.state.view](this.viewEl, data, options);
      this.viewEl.classList.toggle('has-canvas', Boolean(this.handle.canvases?.length));
    } catch (err) {
      this.statusEl.hidden = false;
      this.statusEl.textContent = `Could not draw the ${VIEW_TITLES[this.state.view]} view: ${err instanceof Error ? err.message : String(err)}`;
      console.error(err);
      return;
    }
    if (refocus) this.refocus(refocus);
    const drawMs = performance.now() - t0;
    if (announce) this.api.postMessage({ type: 'rendered', documentUri: this.documentUri, version: this.version, view: this.state.view, drawMs });
  }

  /**
   * Focus the element the user was on before the redraw. In a roving grid only the first item has a
   * tabindex, and an SVG element without one cannot take focus (Enter on the second head toggle
   * dropped focus to the page): it becomes its grid's tab stop instead.
   */
  private refocus(selector: string): void {
    const el = this.root.querySelector<HTMLElement>(selector);
    if (!el) return;
    if (!el.hasAttribute('tabindex') && el.parentElement) {
      for (const other of Array.from(el.parentElement.children)) if (other.getAttribute('tabindex') === '0') other.removeAttribute('tabindex');
      el.setAttribute('tabindex', '0');
    }
    el.focus();
  }

  /** Focus the view's first control (its tab stop, or a painted matrix); false when it has none. */
  focusView(): boolean {
    const stop = this.viewEl.querySelector<HTMLElement>('[tabindex="0"]');
    if (!stop) return false;
    stop.focus();
    return true;
  }

  /** A selector for the focused element inside the panel (a control, a token, a cell), if any. */
  private focusKey(): string | undefined {
    const a = this.doc.activeElement;
    if (!a || !this.root.contains(a) || a === this.root) return undefined;
    if (a.closest('.al-tabs')) return undefined;
    const control = a.getAttribute('data-control');
    if (control) return `select[data-control="${control}"]`;
    if (!this.viewEl.contains(a)) return undefined;
    const attrs = ['data-head', 'data-query', 'data-key', 'data-token', 'data-input', 'data-tip']
      .filter((n) => a.hasAttribute(n)).map((n) => `[${n}="${(a.getAttribute(n) ?? '').replace(/["\\]/g, '')}"]`).join('');
    const cls = a.classList[0];
    return cls && attrs ? `#attention-view .${cls}${attrs}` : undefined;
  }

  private buildTabs(): void {
    const d = this.doc;
    // One tab per view of the registry, in its order (the summary strip is not a tab).
    const tabs = REGISTRY.map((e) => e.name).filter((v): v is ViewName => v !== 'summary');
    const buttons = tabs.map((v, i) => {
      const b = el(d, 'button', { type: 'button', role: 'tab', class: 'al-tab', 'data-view': v, 'aria-selected': String(v === this.state.view) }, VIEW_TITLES[v]);
      b.addEventListener('click', () => this.commit({ view: v }));
      return { el: b, row: 0, col: i };
    });
    this.tabs.replaceChildren(...buttons.map((b) => b.el));
    rovingGrid(this.tabs, buttons, Math.max(0, tabs.indexOf(this.state.view)));
  }

  private buildControls(data: AttentionData, token: number): void {
    const d = this.doc;
    this.tabs.querySelectorAll<HTMLButtonElement>('.al-tab').forEach((b) => {
      const on = b.dataset.view === this.state.view;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    });
    const view: ViewName = this.state.view;
    const entry = viewEntry(view);
    const controls = new Set(entry?.controls ?? []);
    const input = data.inputs[this.state.input];
    const select = (label: string, name: string, options: [string, string][], value: string, onChange: (v: string) => void) => {
      const wrap = el(d, 'label', { class: `al-control al-${name}` });
      const s = el(d, 'select', { 'data-control': name });
      for (const [v, t] of options) {
        const o = el(d, 'option', { value: v }, t);
        if (v === value) o.selected = true;
        s.append(o);
      }
      s.addEventListener('change', () => onChange(s.value));
      wrap.append(el(d, 'span', {}, label), s);
      return wrap;
    };
    // The view's entry in the registry says which controls it has.
    const parts: HTMLElement[] = [];
    if (controls.has('input') && data.inputs.length > 1) {
      parts.push(select('Input', 'input', data.inputs.map((inp, i) => [String(i), inp.name]), String(this.state.input),
        (v) => this.commit({ input: Number(v), token: -1 })));
    }
    if (controls.has('head') && input && input.heads.length > 0) {
      const heads: [string, string][] = input.heads.map((h, i) => [String(i), h.name]);
      const allowAll = entry?.allHeads === true;
      if (allowAll && input.heads.length > 1) heads.unshift(['all', 'all heads']);
      const value = this.state.head === 'all' && !allowAll ? '0' : String(this.state.head);
      parts.push(select('Head', 'head', heads, value, (v) => this.commit({ head: v === 'all' ? 'all' : Number(v) })));
    }
    if (controls.has('token') && input) {
      parts.push(select(entry?.tokenLabel ?? 'Token', 'token', input.tokens.map((t, i) => [String(i), `${i + 1}. ${t}`]), String(token),
        (v) => this.commit({ token: Number(v) })));
    }
    if (controls.has('mode')) {
      parts.push(select('Show', 'mode', MATRIX_MODES.map((m) => [m, MODE_MENU[m]]), this.state.matrixMode,
        (v) => this.commit({ matrixMode: v as MatrixMode })));
    }
    if (controls.has('projection')) {
      const roles: [string, string][] = [['wq', 'W_Q (queries)'], ['wk', 'W_K (keys)'], ['wv', 'W_V (values)']];
      if (data.matrices.some((m) => m.role === 'wo')) roles.push(['wo', 'W_O (output)']);
      parts.push(select('Matrix', 'projection', roles, this.state.projection, (v) => this.commit({ projection: v as Role })));
    }
    this.controls.replaceChildren(...parts);
  }

  private async export(requestId: number, format: 'svg' | 'png', theme?: 'light'): Promise<void> {
    if (!this.handle || !this.data) return;
    let svg: ReturnType<typeof standaloneSvg>;
    if (theme === 'light') {
      // The same view drawn again, off screen, in the light theme and without interaction (SVG cells, no canvas).
      const box = this.doc.createElement('div');
      const pick = this.resolvedToken();
      const handle = VIEWS[this.state.view](box, this.data, {
        theme: makeTheme('light'), width: Math.max(280, this.viewEl.clientWidth || 800), head: this.state.head, input: this.state.input,
        token: pick.token, matrixMode: this.state.matrixMode, projection: this.state.projection, hiddenHeads: this.state.hiddenHeads, interactive: false,
      });
      svg = standaloneSvg(handle, this.doc);
      handle.destroy();
    } else {
      svg = standaloneSvg(this.handle, this.doc);
    }
    const data = format === 'svg' ? svg.text : await svgToPng(svg.text, svg.width, svg.height, this.doc);
    this.api.postMessage({ type: 'exportResult', requestId, format, data });
  }

  dispose(): void {
    this.cleanups.forEach((f) => f());
    this.handle?.destroy();
  }
}
