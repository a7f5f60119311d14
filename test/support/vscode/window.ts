// The `vscode` stand-in's window (see index.ts): webview panels (created, or restored through the
// serializer the host registered), custom editor providers, text editors (showTextDocument makes the
// editor active and fires onDidChangeActiveTextEditor, as VS Code does), the messages shown to the
// user, the quick pick (answered by the test), the tab groups, and log output channels.
import { EventEmitter, ViewColumn, type Range, type TabInputWebview, type TextEditorRevealType, type Uri } from './values.js';
import type { TextDocument } from './document.js';
import { WebviewPanel, type WebviewOptions } from './webview.js';

export interface TextEditor {
  readonly document: TextDocument;
  viewColumn: ViewColumn;
  selection?: Range;
  revealed: { range: Range; type?: TextEditorRevealType }[];
  revealRange(range: Range, type?: TextEditorRevealType): void;
}

export interface Serializer { deserializeWebviewPanel(panel: WebviewPanel, state: unknown): Thenable<void> }

export interface CustomEditorProvider {
  openCustomDocument(uri: Uri, context: { backupId?: string }, token: unknown): unknown;
  resolveCustomEditor(document: unknown, panel: WebviewPanel, token: unknown): unknown;
}

export interface ShownMessage { severity: 'information' | 'warning' | 'error'; message: string; items?: string[] }

export interface LogLine { level: 'trace' | 'debug' | 'info' | 'warn' | 'error'; text: string }

const activeEditor = new EventEmitter<TextEditor | undefined>();
const NO_TOKEN = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

const state = {
  panels: [] as WebviewPanel[],
  serializers: new Map<string, Serializer>(),
  customEditors: new Map<string, { provider: CustomEditorProvider; options: unknown }>(),
  /** Custom documents open, by view type and URI: one per file while any of its editors is open. */
  customDocuments: new Map<string, { document: unknown; editors: number }>(),
  editors: [] as TextEditor[],
  active: undefined as TextEditor | undefined,
  messages: [] as ShownMessage[],
  log: [] as LogLine[],
  tabs: [] as { input: TabInputWebview | unknown }[],
  /** The user's choice in a quick pick (undefined: dismissed). */
  pick: (items: readonly unknown[]): unknown => { void items; return undefined; },
  /** The button the user presses on a message with buttons (undefined: closed without choosing). */
  press: (message: ShownMessage): string | undefined => { void message; return undefined; },
  /** The user's answer to a save dialog: by default they press Save on the proposed file. */
  save: (options: { defaultUri?: Uri }): Uri | undefined => options.defaultUri,
  /** Every save dialog shown, with its options. */
  saveDialogs: [] as { defaultUri?: Uri; title?: string }[],
};

function show(severity: ShownMessage['severity'], message: string, items: string[]): Thenable<string | undefined> {
  const shown: ShownMessage = { severity, message, ...(items.length ? { items } : {}) };
  state.messages.push(shown);
  return Promise.resolve(items.length ? state.press(shown) : undefined);
}

function text(parts: unknown[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : p instanceof Error ? p.message : JSON.stringify(p))).join(' ');
}

function newPanel(viewType: string, title: string, column: ViewColumn | undefined, options?: WebviewOptions): WebviewPanel {
  // Another panel of the same group loses the focus to the new one.
  for (const p of state.panels) p.active = false;
  const panel = new WebviewPanel(viewType, title, column, options);
  state.panels.push(panel);
  panel.onDidDispose(() => { state.panels = state.panels.filter((p) => p !== panel); });
  return panel;
}

export const window = {
  onDidChangeActiveTextEditor: activeEditor.event,

  get activeTextEditor(): TextEditor | undefined { return state.active; },
  get visibleTextEditors(): readonly TextEditor[] { return [...state.editors]; },
  get tabGroups() { return { all: [{ tabs: [...state.tabs] }] }; },

  createWebviewPanel(viewType: string, title: string, showOptions: ViewColumn | { viewColumn: ViewColumn; preserveFocus?: boolean }, options?: WebviewOptions): WebviewPanel {
    const column = typeof showOptions === 'object' ? showOptions.viewColumn : showOptions;
    // Beside: the column right of the active editor's (VS Code resolves it when it shows the panel).
    const resolved = column === ViewColumn.Beside ? (state.active?.viewColumn ?? 0) + 1 : column;
    return newPanel(viewType, title, resolved, options);
  },

  registerWebviewPanelSerializer(viewType: string, serializer: Serializer) {
    if (state.serializers.has(viewType)) throw new Error(`A webview panel serializer for '${viewType}' is already registered`);
    state.serializers.set(viewType, serializer);
    return { dispose: () => { state.serializers.delete(viewType); } };
  },

  registerCustomEditorProvider(viewType: string, provider: CustomEditorProvider, options?: unknown) {
    state.customEditors.set(viewType, { provider, options });
    return { dispose: () => { state.customEditors.delete(viewType); } };
  },

  async showTextDocument(document: TextDocument, options: { viewColumn?: ViewColumn; selection?: Range; preserveFocus?: boolean; preview?: boolean } = {}): Promise<TextEditor> {
    const column = options.viewColumn && options.viewColumn > 0 ? options.viewColumn : ViewColumn.One;
    let editor = state.editors.find((e) => e.document === document && e.viewColumn === column);
    if (!editor) {
      const revealed: TextEditor['revealed'] = [];
      editor = { document, viewColumn: column, revealed, revealRange(range, type) { revealed.push({ range, type }); } };
      state.editors.push(editor);
    }
    if (options.selection) editor.selection = options.selection;
    setActive(editor);
    return editor;
  },

  /** Runs the task at once, with a token nobody cancels (a test that cancels calls the host's cancel). */
  withProgress<T>(_options: unknown, task: (progress: { report(value: unknown): void }, token: { isCancellationRequested: boolean; onCancellationRequested: (f: () => void) => { dispose(): void } }) => Thenable<T>): Thenable<T> {
    return task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
  },

  showInformationMessage: (message: string, ...items: string[]) => show('information', message, items),
  showWarningMessage: (message: string, ...items: string[]) => show('warning', message, items),
  showErrorMessage: (message: string, ...items: string[]) => show('error', message, items),

  async showSaveDialog(options: { defaultUri?: Uri; title?: string } = {}): Promise<Uri | undefined> {
    state.saveDialogs.push(options);
    return state.save(options);
  },

  async showQuickPick<T>(items: readonly T[] | Thenable<readonly T[]>): Promise<T | undefined> {
    return state.pick(await items) as T | undefined;
  },

  createOutputChannel(name: string, options?: { log: true }) {
    if (!options?.log) throw new Error('stand-in: only log output channels are made');
    const line = (level: LogLine['level']) => (...parts: unknown[]) => { state.log.push({ level, text: text(parts) }); };
    return {
      name, logLevel: 2, onDidChangeLogLevel: new EventEmitter<number>().event,
      trace: line('trace'), debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'),
      append: line('info'), appendLine: line('info'), replace: line('info'), clear() {}, show() {}, hide() {}, dispose() {},
    };
  },
};

function setActive(editor: TextEditor | undefined): void {
  if (state.active === editor) return;
  state.active = editor;
  activeEditor.fire(editor);
}

/** The test's hand on the window. */
export const windows = {
  state,
  /** VS Code reloads the window and restores a panel of `viewType` with the state its page saved. */
  async restore(viewType: string, saved: unknown, title = 'Attention'): Promise<WebviewPanel> {
    const serializer = state.serializers.get(viewType);
    if (!serializer) throw new Error(`stand-in: no serializer for ${viewType}: VS Code would not restore the panel`);
    const panel = newPanel(viewType, title, ViewColumn.Two, {});
    await serializer.deserializeWebviewPanel(panel, saved);
    return panel;
  },
  /**
   * Opens a custom editor of `viewType` on `uri`, as VS Code does for 'vscode.openWith': the file's
   * document is opened once and shared by its editors, and disposed when the last of them closes.
   */
  async openCustomEditor(uri: Uri, viewType: string, column: ViewColumn = ViewColumn.One): Promise<WebviewPanel> {
    const entry = state.customEditors.get(viewType);
    if (!entry) throw new Error(`stand-in: no custom editor ${viewType}`);
    const key = `${viewType} ${uri.toString()}`;
    let open = state.customDocuments.get(key);
    if (!open) {
      open = { document: await entry.provider.openCustomDocument(uri, {}, NO_TOKEN), editors: 0 };
      state.customDocuments.set(key, open);
    }
    const shared = open;
    shared.editors++;
    const resolved = column === ViewColumn.Beside ? (state.active?.viewColumn ?? 0) + 1 : column;
    const panel = newPanel(viewType, uri.path.split('/').pop() ?? '', resolved, (entry.options as { webviewOptions?: WebviewOptions } | undefined)?.webviewOptions ?? {});
    panel.onDidDispose(() => {
      if (--shared.editors > 0) return;
      state.customDocuments.delete(key);
      (shared.document as { dispose?(): void }).dispose?.();
    });
    await entry.provider.resolveCustomEditor(shared.document, panel, NO_TOKEN);
    return panel;
  },
  /** The user focuses an editor (or none). */
  focus(editor: TextEditor | undefined): void {
    setActive(editor);
  },
  reset(): void {
    for (const p of [...state.panels]) p.dispose();
    state.serializers.clear();
    state.customEditors.clear();
    state.customDocuments.clear();
    state.editors = [];
    state.active = undefined;
    state.messages = [];
    state.log = [];
    state.tabs = [];
    state.pick = () => undefined;
    state.press = () => undefined;
    state.save = (options) => options.defaultUri;
    state.saveDialogs = [];
  },
};
