// The `vscode` stand-in's workspace (see index.ts): open documents (a file: URI is read from disk on
// first open, as VS Code does; anything else must have been opened by the test with its text), their
// open/change/close events, applyEdit (all edits to a document as one new version, then
// onDidChangeTextDocument), settings, workspace folders, findFiles over those folders, and fs on disk.
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { TextDocument, type ContentChange } from './document.js';
import { EventEmitter, FileType, Range, Uri, type WorkspaceEdit } from './values.js';

export interface TextDocumentChangeEvent { document: TextDocument; contentChanges: readonly ContentChange[]; reason?: number }

const opened = new EventEmitter<TextDocument>();
const changed = new EventEmitter<TextDocumentChangeEvent>();
const closed = new EventEmitter<TextDocument>();

const state = {
  documents: [] as TextDocument[],
  settings: new Map<string, unknown>(),
  folders: [] as { uri: Uri; name: string; index: number }[],
  /** When true, applyEdit answers false, as for a read-only file. */
  refuseEdits: false,
  /** Every WorkspaceEdit applied, in order (one per applyEdit: one undo step each). */
  applied: [] as WorkspaceEdit[],
};

function find(uri: Uri): TextDocument | undefined {
  return state.documents.find((d) => d.uri.toString() === uri.toString());
}

function add(document: TextDocument): TextDocument {
  state.documents.push(document);
  opened.fire(document);
  return document;
}

/** `**` any folders, `*` any name part, `{a,b}` either: enough for the globs the host passes. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) { out += '(?:.*/)?'; i += 2; } else if (glob.startsWith('**', i)) { out += '.*'; i++; } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',') out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function walk(folder: string, at = ''): string[] {
  return readdirSync(join(folder, at), { withFileTypes: true }).flatMap((e) => {
    const rel = at ? `${at}/${e.name}` : e.name;
    if (e.isDirectory()) return walk(folder, rel);
    return e.isFile() ? [rel] : [];
  });
}

export const workspace = {
  onDidOpenTextDocument: opened.event,
  onDidChangeTextDocument: changed.event,
  onDidCloseTextDocument: closed.event,

  get textDocuments(): readonly TextDocument[] {
    return [...state.documents];
  },

  get workspaceFolders() {
    return state.folders.length ? [...state.folders] : undefined;
  },

  async openTextDocument(uri: Uri): Promise<TextDocument> {
    const open = find(uri);
    if (open) return open;
    if (uri.scheme !== 'file') throw new Error(`cannot open ${uri.toString()}. Detail: the stand-in has no document there (open it in the test first)`);
    let text: string;
    try {
      text = readFileSync(uri.fsPath, 'utf8');
    } catch (err) {
      throw new Error(`cannot open ${uri.toString()}. Detail: Unable to read file '${uri.fsPath}' (${(err as Error).message})`);
    }
    return add(new TextDocument(uri, text));
  },

  getConfiguration(section?: string) {
    return {
      get<T>(key: string, defaultValue?: T): T | undefined {
        const full = section ? `${section}.${key}` : key;
        return state.settings.has(full) ? state.settings.get(full) as T : defaultValue;
      },
    };
  },

  /** The folder of the workspace that holds `uri` (the longest that does), as VS Code answers. */
  getWorkspaceFolder(uri: Uri) {
    const inside = state.folders.filter((f) => f.uri.scheme === uri.scheme && (uri.path === f.uri.path || uri.path.startsWith(`${f.uri.path.replace(/\/$/, '')}/`)));
    return inside.sort((a, b) => b.uri.path.length - a.uri.path.length)[0];
  },

  asRelativePath(pathOrUri: string | Uri, includeWorkspaceFolder = false): string {
    const fsPath = typeof pathOrUri === 'string' ? pathOrUri : pathOrUri.fsPath;
    const folder = state.folders.find((f) => !relative(f.uri.fsPath, fsPath).startsWith('..'));
    if (!folder) return fsPath;
    const rel = relative(folder.uri.fsPath, fsPath);
    return includeWorkspaceFolder && state.folders.length > 1 ? `${folder.name}/${rel}` : rel;
  },

  async findFiles(include: string, exclude?: string | null, maxResults?: number): Promise<Uri[]> {
    const wanted = globToRegExp(include);
    const unwanted = exclude ? globToRegExp(exclude) : undefined;
    const found = state.folders.flatMap((f) => walk(f.uri.fsPath)
      .filter((rel) => wanted.test(rel) && !unwanted?.test(rel))
      .map((rel) => Uri.joinPath(f.uri, rel)));
    return found.slice(0, maxResults ?? found.length);
  },

  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    if (state.refuseEdits) return false;
    const targets: [TextDocument, Parameters<TextDocument['apply']>[0]][] = [];
    for (const [uri, edits] of edit.entries()) targets.push([await workspace.openTextDocument(uri), edits]);
    state.applied.push(edit);
    for (const [document, edits] of targets) changed.fire({ document, contentChanges: document.apply(edits) });
    return true;
  },

  fs: {
    async stat(uri: Uri) {
      const s = await stat(uri.fsPath).catch(() => { throw Object.assign(new Error(`EntryNotFound (FileSystemError): ${uri.toString()}`), { code: 'FileNotFound' }); });
      // VS Code's own: a pipe, a socket or a device is FileType.Unknown (0).
      return { type: s.isDirectory() ? 2 : s.isFile() ? 1 : 0, ctime: s.ctimeMs, mtime: s.mtimeMs, size: s.size };
    },
    async readFile(uri: Uri): Promise<Uint8Array> {
      return new Uint8Array(await readFile(uri.fsPath));
    },
    async writeFile(uri: Uri, content: Uint8Array): Promise<void> {
      if (uri.scheme !== 'file') throw new Error(`No file system provider found for resource '${uri.toString()}'`);
      await writeFile(uri.fsPath, content);
    },
    /** Makes the folder and any missing parents, as VS Code's does. */
    async createDirectory(uri: Uri): Promise<void> {
      await mkdir(uri.fsPath, { recursive: true });
    },
    async readDirectory(uri: Uri): Promise<[string, FileType][]> {
      return (await readdir(uri.fsPath, { withFileTypes: true }))
        .map((e): [string, FileType] => [e.name, e.isFile() ? FileType.File : e.isDirectory() ? FileType.Directory : FileType.Unknown]);
    },
  },
};

/** The test's hand on the workspace. */
export const documents = {
  state,
  /** A document the user has open with this text (an untitled one, or a file's unsaved text). */
  open(uri: Uri, text: string): TextDocument {
    if (find(uri)) throw new Error(`stand-in: ${uri.toString()} is open already`);
    return add(new TextDocument(uri, text));
  },
  /** The user types: the whole text becomes `text`, as one edit (one new version). */
  type(document: TextDocument, text: string): void {
    const all = new Range(document.positionAt(0), document.positionAt(document.getText().length));
    changed.fire({ document, contentChanges: document.apply([{ range: all, newText: text }]) });
  },
  /** The user closes the document's last editor: VS Code closes the document. */
  close(document: TextDocument): void {
    state.documents = state.documents.filter((d) => d !== document);
    document.isClosed = true;
    closed.fire(document);
  },
  setFolders(...uris: Uri[]): void {
    state.folders = uris.map((uri, index) => ({ uri, name: uri.path.split('/').pop() ?? '', index }));
  },
  reset(): void {
    for (const d of state.documents) d.isClosed = true;
    state.documents = [];
    state.settings.clear();
    state.folders = [];
    state.refuseEdits = false;
    state.applied = [];
  },
};
