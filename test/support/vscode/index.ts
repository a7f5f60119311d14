// A stand-in for the `vscode` module, so that unit tests in plain Node can load the host's VS Code
// glue (src/host/**) and drive it. Load it with `import '<…>/test/support/vscode/register.js'` before
// any host module: from then on `require('vscode')` (what `import * as vscode from 'vscode'` becomes
// under tsx, this package being CommonJS) is this file.
//
// What it is: the parts of the API the host uses, each behaving as VS Code's documentation says
// (values.ts: Uri, Position, Range, EventEmitter, Disposable, the enums, Diagnostic, Hover, …;
// document.ts: TextDocument; webview.ts: WebviewPanel and Webview; workspace.ts, window.ts,
// languages.ts, commands.ts: the namespaces), plus `standIn`: the test's hand on it (open or type
// in a document, speak as a webview's page, restore a panel, read the messages shown to the user,
// the log, the diagnostics, the commands run).
//
// What it is not: VS Code. There is no editor, no page runs in a webview (the test is the page and
// answers for it), no extension host process, no file watching, no undo stack; members the host does
// not use are absent on purpose, so a host file that starts using one fails here loudly rather than
// on a guess. What the real workbench does is tested by test/integration (code-server).
import { commandRegistry } from './commands.js';
import { editorFeatures } from './languages.js';
import { windows } from './window.js';
import { documents } from './workspace.js';
import { Uri } from './values.js';
import { rendererChannels } from './notebooks.js';

export * from './values.js';
export { TextDocument } from './document.js';
export { Webview, WebviewPanel } from './webview.js';
export { workspace } from './workspace.js';
export { window, type TextEditor } from './window.js';
export { languages, DiagnosticCollection } from './languages.js';
export { commands } from './commands.js';
export { notebooks } from './notebooks.js';

/**
 * A stand-in value seen through VS Code's types, for the host's signatures: the host reads only the
 * members the stand-in has (a member it lacks would be undefined at run time and fail the test).
 */
/** The other extensions the window has, by id: none until a test adds one (standIn.extensions). */
const installed = new Set<string>();
export const extensions = {
  getExtension(id: string): { id: string } | undefined { return installed.has(id) ? { id } : undefined; },
};

export function asVscode<T>(value: unknown): T {
  return value as T;
}

/** An ExtensionContext with what the host reads of it: its folder and its subscriptions. */
export function extensionContext(extensionPath: string) {
  return { extensionUri: Uri.file(extensionPath), extensionPath, subscriptions: [] as { dispose(): unknown }[] };
}

export const standIn = {
  documents,
  windows,
  editorFeatures,
  commands: commandRegistry,
  renderers: rendererChannels,
  extensions: installed,
  /** Forgets every document, panel, editor, message, provider, command and setting: a fresh window. */
  reset(): void {
    windows.reset();
    documents.reset();
    editorFeatures.reset();
    commandRegistry.reset();
    rendererChannels.reset();
    installed.clear();
  },
};
