// The panel shell: the toolbar (view, input, head, token, matrix mode, projection matrix), the
// summary strip, the problems list and the view itself. It checks every host message, draws on
// 'render' and answers 'painted', keeps the last good picture dimmed on 'problems', exports on
// 'exportRequest', and remembers its state across reloads. Theme, resize, focus, tooltip and the
// message channel are the shell base's (webview/shell).
import type { AttentionData } from '../../src/core/result/attention-data.js';
import type { HostMessage, PanelElsewhere, PanelProblem, ViewName, WebviewMessage } from '../../src/protocol/panel.js';
import { makeTheme } from '../kit/colour.js';
import { rovingGrid } from '../kit/keyboard.js';
import { MATRIX_MODES, MODE_MENU } from '../../src/core/vocabulary.js';
import { readHostMessage } from '../../src/protocol/host-message-check.js';
import { clampState, restoreState, toPanelState, type UiState } from './state.js';
import { applyOpen, showStory } from './story.js';
import { SPEC_ENTRIES, VIEWS, VIEW_TITLES, specEntry } from '../views/registry.js';
import { resolveSelection } from '../views/spec/selection.js';
import type { MatrixMode, RevealTarget, Role, ViewHandle } from '../kit/view.js';
import { Shell } from '../shell/shell.js';
import { pictureOf } from '../shell/export.js';
import { vscodeTransport, type Transport, type VsCodeApi as AnyVsCodeApi } from '../shell/transport.js';

/** What acquireVsCodeApi() gives the panel (its entry point injects it). */
export type VsCodeApi = AnyVsCodeApi<WebviewMessage>;

type Status = 'loading' | 'ready' | 'error';

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export class App {
  private readonly doc: Document;
  private readonly shell: Shell;
  private readonly transport: Transport<WebviewMessage>;
  private state: UiState;
  private data?: AttentionData;
  private documentUri: string;
  private fileName: string;
  private version = 0;
  private status: Status = 'loading';
  private handle?: ViewHandle;
  private summary?: ViewHandle;
  /** The document and version whose linear-algebra numbers were asked for. */
  private asked = '';
  /** The document whose spec's "open" was applied (or whose saved state was restored): once per document. */
  private openedFor?: string;

  private readonly titleEl: HTMLElement;
  private readonly fileEl: HTMLElement;
  private readonly lockEl: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly tabs: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly summaryEl: HTMLElement;
  private readonly storyEl: HTMLElement;
  private readonly problemsEl: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly viewEl: HTMLElement;

  constructor(private readonly root: HTMLElement, tooltipEl: HTMLElement, private readonly api: VsCodeApi) {
    this.doc = root.ownerDocument;
    this.documentUri = root.dataset.documentUri ?? '';
    this.fileName = root.dataset.fileName ?? '';
    const saved = api.getState() as { documentUri?: string } | undefined;
    let initial: unknown = saved && (!this.documentUri || saved.documentUri === this.documentUri) ? saved : undefined;
    if (!initial && root.dataset.panelState) {
      try { initial = JSON.parse(root.dataset.panelState); } catch { initial = undefined; }
    }
    this.state = restoreState(initial);
    if (initial) this.openedFor = this.documentUri;
    if (root.dataset.locked === 'true') this.state.locked = true;

    const d = this.doc;
    const header = el(d, 'header', { class: 'al-header' });
    this.titleEl = el(d, 'h1', { class: 'al-title' }, 'Attention Lens');
    this.fileEl = el(d, 'span', { class: 'al-file' }, this.fileName);
    this.lockEl = el(d, 'span', { class: 'al-lock', title: 'This panel stays on its document' }, 'locked');
    this.lockEl.hidden = !this.state.locked;
    header.append(this.titleEl, this.fileEl, this.lockEl);
    this.storyEl = el(d, 'section', { id: 'attention-story', class: 'al-story', 'aria-label': 'About this spec' });
    this.storyEl.hidden = true;
    this.toolbar = el(d, 'nav', { class: 'al-toolbar', 'aria-label': 'View options' });
    this.tabs = el(d, 'div', { class: 'al-tabs', role: 'tablist', 'aria-label': 'View' });
    this.controls = el(d, 'div', { class: 'al-controls' });
    this.toolbar.append(this.tabs, this.controls);
    this.summaryEl = el(d, 'div', { id: 'attention-summary', class: 'al-summary' });
    this.problemsEl = el(d, 'ul', { id: 'attention-problems', class: 'al-problems', 'aria-label': 'Problems in the spec' });
    this.problemsEl.hidden = true;
    this.statusEl = el(d, 'p', { id: 'attention-status', class: 'al-status', role: 'status' }, 'Waiting for a spec…');
    this.viewEl = el(d, 'div', { id: 'attention-view', class: 'al-view' });
    root.replaceChildren(header, this.storyEl, this.toolbar, this.summaryEl, this.problemsEl, this.statusEl, this.viewEl);
    this.shell = new Shell({ root, tooltip: tooltipEl, view: this.viewEl, redraw: () => this.redraw() });
    this.transport = vscodeTransport(api, this.doc.defaultView!);
    this.setStatus('loading');
    this.buildTabs();
  }

  /** Listens to the host, the view's width and the theme, then says 'ready'. */
  start(): void {
    this.shell.start(this.transport, (m) => this.receive(m));
    this.transport.post({ type: 'ready' });
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

  /** The spec shown now: kept on the root too (data-file-name), where the views read it (the linear-algebra views' command names it). */
  private setFileName(name: string): void {
    this.fileName = name;
    this.root.dataset.fileName = name;
  }

  private handle_(message: HostMessage, decoded?: AttentionData): void {
    switch (message.type) {
      case 'render': {
        if (!decoded) return;
        const newDoc = message.documentUri !== this.documentUri;
        this.documentUri = message.documentUri;
        this.setFileName(message.fileName);
        this.version = message.version;
        this.data = decoded;
        if (newDoc) this.state = { ...this.state, input: 0, token: -1, hiddenHeads: [] };
        if (this.openedFor !== message.documentUri) {
          // A spec seen here for the first time opens where it says ("open"); later renders keep the user's choices.
          this.openedFor = message.documentUri;
          this.state = applyOpen(this.state, message.story?.open);
        }
        this.state = clampState(this.state, this.data);
        if (message.story?.open) this.save(false);
        showStory(this.storyEl, message.story, (file) => this.transport.post({ type: 'openNext', documentUri: this.documentUri, file }));
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
        this.setFileName(message.fileName);
        this.fileEl.textContent = message.fileName;
        this.showProblems(message.problems);
        this.setStatus('error');
        if (message.elsewhere) this.showElsewhere(message.elsewhere);
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
    showStory(this.storyEl, undefined, () => {});
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

  /** A spec drawn by another editor: no picture here (nor a stale one), the sentence saying where, and a button to it. */
  private showElsewhere(elsewhere: PanelElsewhere): void {
    this.clearView();
    const open = el(this.doc, 'button', { type: 'button', class: 'al-elsewhere-open' }, elsewhere.action);
    open.addEventListener('click', () => this.transport.post({ type: 'openElsewhere', documentUri: this.documentUri }));
    this.statusEl.replaceChildren(`${elsewhere.message} `, open);
  }

  private reveal(target: RevealTarget): void {
    this.transport.post({ type: 'reveal', documentUri: this.documentUri, target });
  }

  /** After a theme change or a resize: the picture again, with nothing to announce. */
  private redraw(): void {
    if (this.data && this.status !== 'loading') this.draw(false);
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
    if (tellHost && this.documentUri) this.transport.post({ type: 'state', state: toPanelState(this.state, this.documentUri, token) });
  }

  private resolvedToken(): { input: number; token: number } {
    if (!this.data) return { input: this.state.input, token: Math.max(0, this.state.token) };
    return resolveSelection(this.data, this.state.view, this.state);
  }

  /** Draws the current view; `announce` says whether to post 'painted' (not for resizes and theme changes). */
  draw(announce = true): void {
    const data = this.data;
    if (!data) return;
    const t0 = performance.now();
    const theme = this.shell.theme();
    this.titleEl.textContent = data.title ?? 'Attention Lens';
    this.fileEl.textContent = this.fileName;
    const pick = this.resolvedToken();
    if (this.state.token < 0 && this.state.view === 'compare') this.state.input = pick.input;
    // Keyboard users keep their place: the focused control or element is focused again after the redraw.
    const refocus = this.shell.keepFocus('.al-tabs');
    this.buildControls(data, pick.token);
    this.shell.tooltip.hide();
    this.handle?.destroy();
    this.summary?.destroy();
    this.viewEl.replaceChildren();
    this.summaryEl.replaceChildren();
    const width = this.shell.width(280, 800);
    const options = {
      theme, width, head: this.state.head, input: this.state.input, token: pick.token,
      matrixMode: this.state.matrixMode, projection: this.state.projection, hiddenHeads: this.state.hiddenHeads,
      interactive: true, tooltip: this.shell.tooltip,
      onReveal: (t: RevealTarget) => this.reveal(t),
      onPick: (c: Partial<UiState>) => this.commit(c),
    };
    // A view that needs what the result lacks asks the host, once per version, and says it is working.
    const needs = specEntry(this.state.view)?.needs;
    if (needs === 'linalg' && !data.linalg && this.asked !== `${this.documentUri}#${this.version}`) {
      this.asked = `${this.documentUri}#${this.version}`;
      this.transport.post({ type: 'need', documentUri: this.documentUri, version: this.version, what: 'linalg' });
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
    this.shell.drew();
    refocus?.();
    const drawMs = performance.now() - t0;
    if (announce) this.transport.post({ type: 'painted', documentUri: this.documentUri, version: this.version, view: this.state.view, drawMs });
  }

  /** Focus the view's first control (its tab stop, or a painted matrix); false when it has none. */
  focusView(): boolean {
    return this.shell.focusView();
  }

  private buildTabs(): void {
    const d = this.doc;
    // One tab per view of the registry, in its order (the summary strip is not a tab).
    const tabs = SPEC_ENTRIES.map((e) => e.name).filter((v): v is ViewName => v !== 'summary');
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
    const entry = specEntry(view);
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
    let data: string;
    if (theme === 'light') {
      // The same view drawn again, off screen, in the light theme and without interaction (SVG cells, no canvas).
      const box = this.doc.createElement('div');
      const pick = this.resolvedToken();
      const handle = VIEWS[this.state.view](box, this.data, {
        theme: makeTheme('light'), width: Math.max(280, this.viewEl.clientWidth || 800), head: this.state.head, input: this.state.input,
        token: pick.token, matrixMode: this.state.matrixMode, projection: this.state.projection, hiddenHeads: this.state.hiddenHeads, interactive: false,
      });
      const picture = pictureOf(handle, this.doc, format);
      handle.destroy();
      data = await picture;
    } else {
      data = await pictureOf(this.handle, this.doc, format);
    }
    this.transport.post({ type: 'exportResult', requestId, format, data });
  }

  dispose(): void {
    this.shell.dispose();
    this.handle?.destroy();
  }
}
