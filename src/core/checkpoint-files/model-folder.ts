// A model folder on disk: the FolderFiles of folder-files.ts backed by node:fs for the desktop's run
// worker and the CLI. Each name is opened as a regular file inside the folder (a FIFO or a device is
// never read: core/files/read-bounded.ts and file-source.ts), text within its budget, the weights
// opened for reads at offsets. What a model folder must hold, and every check of it, is
// model-folder-read.ts's, shared with the web's files in memory.
import { createHash } from 'node:crypto';
import { closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openRegularFile, fileSource } from '../files/file-source.js';
import { fileKind, readBounded } from '../files/read-bounded.js';
import { ModelError } from '../checkpoint/error.js';
import type { FolderFiles } from './folder-files.js';
import { readModelFolderFrom, type ModelFolder } from './model-folder-read.js';

export { MAX_CONFIG_BYTES, MAX_TOKENIZER_BYTES, type ModelFolder } from './model-folder-read.js';

/** The folder at `folder` on disk as FolderFiles. */
export function diskFolderFiles(folder: string): FolderFiles {
  return {
    folder,
    path: (name) => join(folder, name),
    checkFolder: () => checkFolder(folder),
    read(name, maxBytes) {
      const read = readBounded(join(folder, name), maxBytes);
      return 'refused' in read ? read : { bytes: read.bytes };
    },
    open(name) {
      const path = join(folder, name);
      const probe = openRegularFile(path, '', true);
      if (!probe) return undefined;
      closeSync(probe.fd);
      return fileSource(path);
    },
    sha256: (bytes) => createHash('sha256').update(bytes).digest('hex'),
  };
}

/** The model folder at `folder` on disk (config, weights opened, tokenizer's files), or a ModelError naming the file at fault. */
export function readModelFolder(folder: string): ModelFolder {
  return readModelFolderFrom(diskFolderFiles(folder));
}

/** A model folder named on the command line must be a folder: a file, a FIFO or a device is said to be what it is. */
function checkFolder(folder: string): void {
  let stat;
  try {
    stat = statSync(folder);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ModelError(`${folder}: ${code === 'ENOENT' ? 'no such folder' : `cannot open (${code ?? String(e)})`}`);
  }
  if (!stat.isDirectory()) throw new ModelError(`${folder}: is ${stat.isFile() ? 'a file' : fileKind(stat)}, not a model folder (a folder with config.json, the weights and the tokenizer's files)`);
}
