// Writing a real head as a spec (the lens, core/checkpoint-spec/lens-spec.ts): the .attn.json and its
// tensor file beside it (<stem>.safetensors). Neither may land in the model's own folder (a model's
// files are never replaced: a spec saved there could overwrite a shard or config.json), and neither
// replaces a file a lens did not write: only an earlier lens's pair (its tensor file's metadata
// says Attention Lens wrote it, its spec has a lens's shape and names that file) is replaced, or an
// earlier lens's spec alone when the user deleted its tensor file, so a name the save dialog
// changed (x.attn.json.attn.json written as x.attn.json) or a file linked to a model's weights is
// never written over. Nothing is written through a link: each file is made new beside its name and
// put in place by a link or a rename, which replace names, never the bytes of a file that is there.
// A run longer than a spec can hold is cut to a window of tokens holding the query (lens-window.ts),
// said in the spec's title and the first sentence of its description, which the panel shows.
// No VS Code: the session asks where, this writes.
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, openSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { within } from '../../core/checkpoint-files/model-location.js';
import { LENS_ABOUT, lensFileContents, lensTensorPath } from '../../core/checkpoint-spec/lens-file.js';
import { readSafetensors } from '../../core/tensors/safetensors.js';
import { fileSource } from '../../core/files/file-source.js';
import { readBounded } from '../../core/files/read-bounded.js';
import type { HeadLens } from '../../core/checkpoint/types.js';

export { LENS_SAVE_FILTERS, lensSpecFor, lensSpecPath, lensSpecText, lensStem, lensTensorPath } from '../../core/checkpoint-spec/lens-file.js';

/** Why `specPath` cannot be written for a head of the model in `modelFolder`, or undefined. */
export function lensTargetProblem(specPath: string, modelFolder: string): string | undefined {
  if (!/\.attn\.json$/i.test(specPath)) return 'a spec\'s name ends in .attn.json';
  let folder: string, model: string;
  try {
    folder = realpathSync(dirname(specPath));
    model = realpathSync(modelFolder);
  } catch {
    return `${dirname(specPath)}: no such folder`;
  }
  if (within(model, folder)) return 'this is the model\'s own folder: its files are never replaced, so choose another folder for the spec';
  const tensorPath = lensTensorPath(specPath);
  for (const path of [specPath, tensorPath]) {
    if (isSymbolicLink(path)) return `${basename(path)} is a symbolic link: a lens is not written through one, so choose another name`;
  }
  // Only an earlier lens's own files are replaced: its tensor file says a lens wrote it, and its spec
  // is a lens's naming that file. The spec alone (its tensor file deleted) is still a lens's by its shape.
  const specThere = isThere(specPath), tensorThere = isThere(tensorPath);
  if (tensorThere && !(specThere && isLensTensorFile(tensorPath))) {
    return `${basename(tensorPath)} is there and is not an earlier lens's own tensor file: it is never replaced, so choose another name`;
  }
  if (specThere && !isLensSpec(specPath, basename(tensorPath))) {
    return `${basename(specPath)} is there and is not an earlier lens's own spec: it is never replaced, so choose another name`;
  }
  return undefined;
}

/** A lens's spec is read back to see that it is one; a longer file is not (4,096 tokens' words and band fit). */
const MAX_LENS_SPEC_BYTES = 256 * 1024 * 1024;

/** Whether anything is at `path`, a link to nowhere included. */
function isThere(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether the file at `path` is a safetensors file whose metadata says a lens wrote it (writeLensFiles). */
function isLensTensorFile(path: string): boolean {
  let source: ReturnType<typeof fileSource>;
  try {
    source = fileSource(path);
  } catch {
    return false;
  }
  try {
    const about: string | undefined = readSafetensors(source).metadata.about;
    return about?.startsWith(LENS_ABOUT) === true;
  } catch {
    return false;
  } finally {
    source.close();
  }
}

/**
 * Whether the file at `path` is a lens's spec, by the shape lensSpec gives every one: its embeddings
 * and its one head's W_Q, W_K and W_V are the tensors of those names in `tensorFile` beside it, and
 * the head is named "layer L head H". A spec of the user's own that merely uses the file is not.
 */
function isLensSpec(path: string, tensorFile: string): boolean {
  const read = readBounded(path, MAX_LENS_SPEC_BYTES);
  if (!('bytes' in read)) return false;
  let spec: unknown;
  try {
    spec = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return false;
  }
  const field = (x: unknown, key: string): unknown => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[key] : undefined);
  const names = (ref: unknown, tensor: string) => field(ref, 'file') === tensorFile && field(ref, 'tensor') === tensor;
  const heads = field(spec, 'heads');
  if (!Array.isArray(heads) || heads.length !== 1) return false;
  const [head] = heads as unknown[];
  const name = field(head, 'name');
  return names(field(spec, 'embeddings'), 'embeddings') && typeof name === 'string' && /^layer \d+ head \d+$/.test(name)
    && ['wq', 'wk', 'wv'].every((role) => names(field(head, role), role));
}

/**
 * Writes `bytes` at `path` without following a link or writing into a file that is there: into a
 * new file beside it (created exclusively, so not through a link), then put in place, by a hard
 * link when nothing was there (which fails, not replaces, if something came meanwhile) or a rename
 * over an earlier lens's file (which replaces the name, never the bytes of a file linked to it).
 */
function putInPlace(path: string, bytes: Uint8Array | string, replace: boolean): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.part`);
  const fd = openSync(temporary, 'wx', 0o644);
  try {
    try {
      const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
      // A write may take fewer bytes than it is given.
      for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done);
    } finally {
      closeSync(fd);
    }
    if (replace) renameSync(temporary, path);
    else linkSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Writes the spec and its tensor file; returns the spec's path. Throws with a sentence when it may not. */
export function writeLensFiles(specPath: string, lens: HeadLens, options: { model: string; modelFolder: string; query: number }): string {
  const problem = lensTargetProblem(specPath, options.modelFolder);
  if (problem) throw new Error(problem);
  const tensorPath = lensTensorPath(specPath);
  const { text, tensorBytes } = lensFileContents(lens, { tensorFile: basename(tensorPath), model: options.model, query: options.query });
  // Both there (an earlier lens, checked above) or neither: a name taken meanwhile fails the link (EEXIST).
  const replace = isThere(specPath);
  try {
    putInPlace(tensorPath, tensorBytes, replace);
  } catch (e) {
    throw new Error(`${basename(tensorPath)}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  try {
    putInPlace(specPath, text, replace);
  } catch (e) {
    if (!replace) rmSync(tensorPath, { force: true });
    throw new Error(`${basename(specPath)}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return specPath;
}



/** A fresh spec path in `folder` for the stem (stem.attn.json, else stem-2.attn.json, …). */
export function freshLensPath(folder: string, stem: string): string {
  for (let k = 1; ; k++) {
    const path = join(folder, `${stem}${k === 1 ? '' : `-${k}`}.attn.json`);
    if (!isThere(path) && !isThere(lensTensorPath(path))) return path;
  }
}
