// The value classes of the `vscode` stand-in (see index.ts): Uri, Position, Range, Disposable,
// EventEmitter, the enums, and the plain classes a provider returns (Diagnostic, Hover, MarkdownString,
// CompletionItem, WorkspaceEdit, TabInputWebview). Each behaves as VS Code's API documents it, for
// the members the host uses; anything else is left out on purpose (a host file that starts using more
// fails loudly here instead of passing on a guess).
import { posix } from 'node:path';

/** RFC 3986's parts, as VS Code's Uri.parse splits them. */
const URI_PARTS = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

/** encodeURIComponent, also encoding the few characters VS Code's Uri.toString encodes and it does not. */
function encode(part: string): string {
  return encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}

  /** A file on disk (posix paths: this stand-in runs where the unit tests run). */
  static file(fsPath: string): Uri {
    const p = posix.normalize(fsPath.replace(/\\/g, '/'));
    return new Uri('file', '', p.startsWith('/') ? p : `/${p}`, '', '');
  }

  static parse(value: string): Uri {
    const m = URI_PARTS.exec(value);
    if (!m) throw new Error(`[UriError]: Scheme is missing: ${value}`);
    const [, scheme, authority = '', path = '', query = '', fragment = ''] = m;
    return new Uri(scheme, decodeURIComponent(authority), decodeURIComponent(path), decodeURIComponent(query), decodeURIComponent(fragment));
  }

  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: posix.join(base.path || '/', ...segments) });
  }

  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path,
      change.query ?? this.query, change.fragment ?? this.fragment);
  }

  /** The path on disk: the path itself on posix (VS Code adds drive letters and UNC on Windows only). */
  get fsPath(): string {
    return this.authority && this.scheme === 'file' ? `//${this.authority}${this.path}` : this.path;
  }

  toString(): string {
    const authority = this.authority || this.scheme === 'file' ? `//${encode(this.authority)}` : '';
    const path = this.path.split('/').map(encode).join('/');
    return `${this.scheme}:${authority}${path}${this.query ? `?${encode(this.query)}` : ''}${this.fragment ? `#${encode(this.fragment)}` : ''}`;
  }

  toJSON(): unknown {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {
    if (line < 0 || character < 0) throw new Error('Illegal argument: line and character must be non-negative');
  }

  isBefore(other: Position): boolean {
    return this.line < other.line || (this.line === other.line && this.character < other.character);
  }

  isEqual(other: Position): boolean {
    return this.line === other.line && this.character === other.character;
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;

  constructor(start: Position, end: Position);
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number);
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const [s, e] = typeof a === 'number' ? [new Position(a, b as number), new Position(c!, d!)] : [a, b as Position];
    // VS Code orders the two ends: a range never runs backwards.
    [this.start, this.end] = e.isBefore(s) ? [e, s] : [s, e];
  }

  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
}

export class Disposable {
  private done = false;
  constructor(private readonly callOnDispose: () => unknown) {}

  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => { for (const item of items) item.dispose(); });
  }

  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.callOnDispose();
  }
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  private disposed = false;

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = (e: T) => listener.call(thisArgs, e);
    if (!this.disposed) this.listeners.add(bound);
    const subscription = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(subscription);
    return subscription;
  };

  fire(data: T): void {
    // A listener that throws does not keep the others from hearing (VS Code logs it and goes on).
    for (const listener of [...this.listeners]) {
      try {
        listener(data);
      } catch (err) {
        console.error('stand-in EventEmitter: a listener threw', err);
      }
    }
  }

  /** Listeners still subscribed (for tests that check a dispose let go of everything). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

export enum ViewColumn { Active = -1, Beside = -2, One = 1, Two = 2, Three = 3 }
export enum DiagnosticSeverity { Error = 0, Warning = 1, Information = 2, Hint = 3 }
export enum CompletionItemKind { Text = 0, Method = 1, Function = 2, Constructor = 3, Field = 4, Variable = 5, Class = 6, Interface = 7, Module = 8, Property = 9, Unit = 10, Value = 11 }
export enum ProgressLocation { SourceControl = 1, Window = 10, Notification = 15 }
export enum QuickPickItemKind { Separator = -1, Default = 0 }
export enum TextEditorRevealType { Default = 0, InCenter = 1, InCenterIfOutsideViewport = 2, AtTop = 3 }

export class Diagnostic {
  source?: string;
  code?: string | number;
  constructor(readonly range: Range, readonly message: string, readonly severity: DiagnosticSeverity = DiagnosticSeverity.Error) {}
}

export class MarkdownString {
  constructor(public value = '', public supportThemeIcons = false) {}
}

export class Hover {
  readonly contents: MarkdownString[];
  constructor(contents: MarkdownString | MarkdownString[], readonly range?: Range) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

export class CompletionItem {
  detail?: string;
  insertText?: string;
  sortText?: string;
  constructor(readonly label: string, readonly kind?: CompletionItemKind) {}
}

export interface TextEditEntry { range: Range; newText: string }

/** Edits to documents, applied together by workspace.applyEdit (one undo step in VS Code). */
export class WorkspaceEdit {
  private readonly edits = new Map<string, { uri: Uri; edits: TextEditEntry[] }>();

  replace(uri: Uri, range: Range, newText: string): void {
    const key = uri.toString();
    if (!this.edits.has(key)) this.edits.set(key, { uri, edits: [] });
    this.edits.get(key)!.edits.push({ range, newText });
  }

  insert(uri: Uri, position: Position, newText: string): void {
    this.replace(uri, new Range(position, position), newText);
  }

  get size(): number {
    return this.edits.size;
  }

  entries(): [Uri, TextEditEntry[]][] {
    return [...this.edits.values()].map((e) => [e.uri, [...e.edits]]);
  }
}

export class TabInputWebview {
  constructor(readonly viewType: string) {}
}

/** What vscode.workspace.fs.stat and readDirectory say an entry is. */
export enum FileType { Unknown = 0, File = 1, Directory = 2, SymbolicLink = 64 }
