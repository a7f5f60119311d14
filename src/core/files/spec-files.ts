// The tensor files a spec may name ("wq": { "file": "w.safetensors", "tensor": "..." }), opened
// beside the spec: only paths inside the spec's folder (no absolute path, no "..", no link that
// leads out), so a spec from somewhere else cannot make the editor read files outside its folder.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { TensorFileError, type ByteSource } from '../tensors/source.js';
import { fileSource } from './file-source.js';
import { findTensors } from './open.js';
import { badFileName } from '../spec/read/file-name.js';

/** Opens a file a spec names; throws TensorFileError with a sentence when it cannot. */
export interface TensorFiles {
  open(name: string): ByteSource;
  /**
   * The tensors of an opened file (findTensors of open.ts): given here rather than imported by the
   * spec's reader, which stays free of Node (an .npz is inflated with node:zlib) for the web build.
   */
  find: typeof findTensors;
}

export { badFileName };

/** The real path of `name` in `folder` or below it; throws TensorFileError when it is not there or leads out. */
export function resolveBeside(folder: string, name: string): string {
  const bad = badFileName(name);
  if (bad) throw new TensorFileError(`${name}: ${bad}`);
  const path = join(folder, name);
  let real: string, root: string;
  try {
    real = realpathSync(path);
    root = realpathSync(folder);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TensorFileError(`${name}: ${code === 'ENOENT' ? 'no such file beside the spec' : `cannot open (${code ?? String(e)})`}`);
  }
  const rel = relative(root, real);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) {
    throw new TensorFileError(`${name}: leads outside the spec's folder (through a link)`);
  }
  // Before anything opens it: opening a FIFO for reading blocks until a writer comes (forever), and
  // a directory or device is no tensor file either.
  if (!statSync(real).isFile()) throw new TensorFileError(`${name}: not a regular file (a pipe, device or folder cannot hold a tensor)`);
  return real;
}

/**
 * The tokens file an attention file may carry beside it (X.tokens.json for X.npy, read by
 * sidecarTokens), held to the same rule when it is there: a link named run.tokens.json that leads
 * to /etc/passwd would otherwise be read, and its first characters quoted in the problem.
 * `real`: the attention file's path as resolveBeside returned it.
 */
export function checkSidecarBeside(folder: string, real: string): void {
  const sidecar = real.replace(/\.(npy|npz|safetensors)$/i, '') + '.tokens.json';
  try {
    lstatSync(sidecar);
  } catch {
    return; // none: the spec's tokens are used
  }
  resolveBeside(realpathSync(folder), relative(realpathSync(folder), sidecar));
}

/** Files in `folder` and below it. */
export function folderFiles(folder: string): TensorFiles {
  return { open: (name) => fileSource(resolveBeside(folder, name)), find: findTensors };
}
