// The `vscode` stand-in's languages (see index.ts): diagnostic collections (set, get, delete, clear,
// as VS Code's DiagnosticCollection), and the hover and completion providers the host registers, which
// a test asks as the editor would: only the providers whose document selector matches the document.
import type { TextDocument } from './document.js';
import type { Diagnostic, Position, Uri } from './values.js';
import { globToRegExp } from './workspace.js';

export type DocumentSelector = { pattern?: string; language?: string; scheme?: string };

interface Registered<P> { selector: DocumentSelector; provider: P }

interface HoverProvider { provideHover(document: TextDocument, position: Position, token: unknown): unknown }
interface CompletionProvider { provideCompletionItems(document: TextDocument, position: Position, token: unknown, context: unknown): unknown }

export class DiagnosticCollection {
  private readonly entries = new Map<string, readonly Diagnostic[]>();
  disposed = false;
  constructor(readonly name: string) {}

  set(uri: Uri, diagnostics: readonly Diagnostic[] | undefined): void {
    if (this.disposed) throw new Error('DiagnosticCollection is disposed');
    // VS Code: an empty array or undefined removes the entry.
    if (!diagnostics?.length) this.entries.delete(uri.toString());
    else this.entries.set(uri.toString(), [...diagnostics]);
  }

  get(uri: Uri): readonly Diagnostic[] | undefined {
    return this.entries.get(uri.toString());
  }

  has(uri: Uri): boolean {
    return this.entries.has(uri.toString());
  }

  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
  }

  clear(): void {
    this.entries.clear();
  }

  dispose(): void {
    this.entries.clear();
    this.disposed = true;
  }
}

const state = {
  collections: [] as DiagnosticCollection[],
  hovers: [] as Registered<HoverProvider>[],
  completions: [] as Registered<CompletionProvider>[],
};

function register<P>(list: Registered<P>[], selector: DocumentSelector, provider: P) {
  const entry = { selector, provider };
  list.push(entry);
  return { dispose: () => { const i = list.indexOf(entry); if (i >= 0) list.splice(i, 1); } };
}

/** VS Code's match of one selector: every field given must hold (a pattern is a glob over the path). */
export function matches(selector: DocumentSelector, document: TextDocument): boolean {
  if (selector.language && selector.language !== document.languageId) return false;
  if (selector.scheme && selector.scheme !== document.uri.scheme) return false;
  if (selector.pattern && !globToRegExp(selector.pattern).test(document.uri.path.replace(/^\//, ''))) return false;
  return true;
}

const NO_TOKEN = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

export const languages = {
  createDiagnosticCollection(name: string): DiagnosticCollection {
    const collection = new DiagnosticCollection(name);
    state.collections.push(collection);
    return collection;
  },
  registerHoverProvider: (selector: DocumentSelector, provider: HoverProvider) => register(state.hovers, selector, provider),
  registerCompletionItemProvider: (selector: DocumentSelector, provider: CompletionProvider) => register(state.completions, selector, provider),
};

/** The test's hand on the language features: what the editor would ask. */
export const editorFeatures = {
  state,
  /** The hovers every matching provider gives at `position` (the editor shows them together). */
  async hovers(document: TextDocument, position: Position): Promise<unknown[]> {
    const all = await Promise.all(state.hovers.filter((h) => matches(h.selector, document)).map((h) => h.provider.provideHover(document, position, NO_TOKEN)));
    return all.filter((h) => h !== undefined && h !== null);
  },
  /** The completion items every matching provider offers at `position`. */
  async completions(document: TextDocument, position: Position): Promise<unknown[]> {
    const all = await Promise.all(state.completions.filter((c) => matches(c.selector, document))
      .map((c) => c.provider.provideCompletionItems(document, position, NO_TOKEN, { triggerKind: 0 })));
    return all.flatMap((items) => (Array.isArray(items) ? items : []));
  },
  reset(): void {
    state.collections = [];
    state.hovers.length = 0;
    state.completions.length = 0;
  },
};
