// The one reader of small files a command is given by name (a spec, a --text-file, a model's
// config.json, index and tokenizer, a tokens file beside an attention file): only a regular file is
// opened, and it is read within a byte budget. The size a file reports cannot be trusted, and
// opening a FIFO for reading waits for a writer for ever, so the path is looked at (stat) before the
// open, opened non-blocking, looked at again through its descriptor (the name may have been swapped
// in between), and read until the budget plus one byte: enough to know it is over.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

export type BoundedRead =
  | { bytes: Buffer }
  /** missing: nothing at the path; not-regular: `detail` names what is there ("a directory", "a pipe (FIFO)"); too-large: over the budget; unreadable: `detail` is the error code. */
  | { refused: 'missing' | 'not-regular' | 'too-large' | 'unreadable'; detail: string };

const CHUNK = 64 * 1024;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** What a path that is not a regular file is, in words ("a directory", "a pipe (FIFO)", …). */
export function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Reads at most maxBytes + 1 bytes from `fd` (a file, or standard input): enough to know it is over the budget. */
export function readBudget(fd: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(CHUNK, maxBytes + 1 - total);
    if (want <= 0) break;
    const buf = Buffer.allocUnsafe(want);
    let n: number;
    try {
      n = readSync(fd, buf, 0, want, null);
    } catch (e) {
      // A non-blocking stdin (a socket from a parent process) has no data yet: wait a moment, try again.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') { Atomics.wait(PAUSE, 0, 0, 2); continue; }
      throw e;
    }
    if (n === 0) break;
    chunks.push(n === want ? buf : buf.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? String(e);

/** The bytes of the regular file at `path` (links followed), at most `maxBytes` of them, or why not. */
export function readBounded(path: string, maxBytes: number): BoundedRead {
  let before: Stats;
  try {
    before = statSync(path);
  } catch (e) {
    const code = codeOf(e);
    return code === 'ENOENT' || code === 'ENOTDIR' ? { refused: 'missing', detail: code } : { refused: 'unreadable', detail: code };
  }
  if (!before.isFile()) return { refused: 'not-regular', detail: fileKind(before) };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = codeOf(e);
    return code === 'ENOENT' ? { refused: 'missing', detail: code } : { refused: 'unreadable', detail: code };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { refused: 'not-regular', detail: fileKind(stat) };
    const bytes = readBudget(fd, maxBytes);
    if (bytes.length > maxBytes) return { refused: 'too-large', detail: String(maxBytes) };
    return { bytes };
  } catch (e) {
    return { refused: 'unreadable', detail: codeOf(e) };
  } finally {
    closeSync(fd);
  }
}
