// What reading a model folder asks of where its files are: a few files by name (config.json, the
// index, the tokenizer's), each read whole within a byte budget, and the weights opened as a
// ByteSource read at offsets. The desktop and the CLI back it with the disk (model-folder.ts, node:fs);
// the web fills a memory backing (memoryFolderFiles below) with what vscode.workspace.fs read, since
// the core reads synchronously and the browser's file API is asynchronous. The checks of a model
// folder (shard names, missing files, duplicate tensors) are made once, on this interface
// (model-folder-read.ts), for both. This file is pure: the browser bundles take it.
import { memorySource, TensorFileError, type ByteSource } from '../tensors/source.js';

/** A small file read whole, or why not (the same words as core/files/read-bounded.ts). */
export type FolderFileRead =
  | { bytes: Uint8Array }
  /** missing: nothing by that name; not-regular: `detail` says what is there ("a directory"); too-large: over the budget; unreadable: `detail` says why. */
  | { refused: 'missing' | 'not-regular' | 'too-large' | 'unreadable'; detail: string };

export interface FolderFiles {
  /** The folder's name in messages (a path on disk, a URI on the web). */
  readonly folder: string;
  /** A file of the folder as messages name it. */
  path(name: string): string;
  /** Throws a ModelError (naming the folder) unless the folder is one. */
  checkFolder(): void;
  /** A small file's bytes, read within `maxBytes`. */
  read(name: string, maxBytes: number): FolderFileRead;
  /** A weights file opened for reads at offsets; undefined when there is no file by that name. */
  open(name: string): ByteSource | undefined;
  /** The SHA-256 (hex) of bytes read, which keys the tokenizer cache: where the backing has one. */
  sha256?(bytes: Uint8Array): string;
}

/** A file of a folder in memory: its bytes, or 'folder' for an entry that is one (refused as not a file). */
export type MemoryEntry = Uint8Array | 'folder';

/** Joins a folder's name and a file name with one slash (a URI or a POSIX path). */
export function joinName(folder: string, name: string): string {
  return folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`;
}

/** A folder whose files are already in memory (the web reads them through workspace.fs first). */
export function memoryFolderFiles(folder: string, entries: ReadonlyMap<string, MemoryEntry>): FolderFiles {
  const path = (name: string) => joinName(folder, name);
  return {
    folder,
    path,
    checkFolder() { /* the entries are the folder's: its reader found a folder there */ },
    read(name, maxBytes) {
      const entry = entries.get(name);
      if (entry === undefined) return { refused: 'missing', detail: 'ENOENT' };
      if (entry === 'folder') return { refused: 'not-regular', detail: 'a directory' };
      if (entry.length > maxBytes) return { refused: 'too-large', detail: String(entry.length) };
      return { bytes: entry };
    },
    open(name) {
      const entry = entries.get(name);
      if (entry === undefined) return undefined;
      if (entry === 'folder') throw new TensorFileError(`${path(name)}: not a regular file but a directory`);
      return memorySource(path(name), entry);
    },
  };
}
