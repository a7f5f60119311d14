// A tensor file on disk as a ByteSource (src/core/tensors/source.ts): opened once, read at offsets.
// Only a regular file is opened, without blocking (a FIFO would wait for a writer for ever;
// openRegularFile, which the tokens file beside it uses too), and every read must return all the
// bytes it asked for, else the file is truncated.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { fileKind } from './read-bounded.js';
import { TENSOR_FILE_IS_REGULAR } from './attention-bytes.js';
import { checkRange, MAX_READ_BYTES, TensorFileError, type ByteSource } from '../tensors/source.js';

/** A regular file open for reading: its descriptor (the caller closes it) and its size. */
export interface RegularFile { fd: number; size: number }

/**
 * Opens a regular file for reading, or throws a TensorFileError that names it: "cannot open (CODE)",
 * or "not a regular file" and `why` for a FIFO, a device or a folder. Opened non-blocking: opening a
 * FIFO for reading otherwise waits for a writer, for ever, before fstat could refuse it (a regular
 * file's reads are not changed by the flag). With `optional`, a file that does not exist is undefined.
 */
export function openRegularFile(path: string, why?: string): RegularFile;
export function openRegularFile(path: string, why: string, optional: true): RegularFile | undefined;
export function openRegularFile(path: string, why = '', optional = false): RegularFile | undefined {
  // Looked at before the open too: a socket's open fails with a code no one can read (ENXIO), and a
  // device's may have effects of its own; the descriptor's fstat below catches a name swapped meanwhile.
  let before: Stats | undefined;
  try {
    before = statSync(path);
  } catch {
    before = undefined; // the open below says why, in its own code
  }
  if (before && !before.isFile()) throw new TensorFileError(`${path}: not a regular file but ${fileKind(before)}${why}`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (optional && code === 'ENOENT') return undefined;
    throw new TensorFileError(`${path}: cannot open (${code ?? String(e)})`);
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new TensorFileError(`${path}: not a regular file but ${fileKind(stat)}${why}`);
  }
  return { fd, size: stat.size };
}

export function fileSource(path: string): ByteSource {
  const { fd, size } = openRegularFile(path, TENSOR_FILE_IS_REGULAR);
  const readFully = (buf: Uint8Array, offset: number) => {
    const length = buf.length;
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buf, done, length - done, offset + done);
      if (n === 0) throw new TensorFileError(`${path}: truncated: the data ends at byte ${offset + done}, ${length - done} bytes before the end the header promised`);
      done += n;
    }
  };
  return {
    name: path,
    size,
    read(offset, length) {
      checkRange(path, offset, length, size);
      if (length > MAX_READ_BYTES) throw new TensorFileError(`${path}: one read of ${length} bytes is over the ${MAX_READ_BYTES}-byte limit`);
      const buf = new Uint8Array(length);
      readFully(buf, offset);
      return buf;
    },
    readInto(offset, target) {
      checkRange(path, offset, target.length, size);
      if (target.length > MAX_READ_BYTES) throw new TensorFileError(`${path}: one read of ${target.length} bytes is over the ${MAX_READ_BYTES}-byte limit`);
      readFully(target, offset);
    },
    close() { closeSync(fd); },
  };
}
