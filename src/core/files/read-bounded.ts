// The one reader of small files a command is given by name (a spec, a --text-file, a model's
// config.json, index and tokenizer, a tokens file beside an attention file): a regular file, or, for
// a caller that asks (`pipes`), a FIFO such as the shell's <(gen); never a socket, a device or a
// folder. Everything is read within a byte budget. The size a file reports cannot be trusted, and a
// blocking open of a FIFO waits for a writer for ever, so the path is looked at (stat) before the
// open, opened non-blocking, looked at again through its descriptor (the name may have been swapped
// in between), and read until the budget plus one byte: enough to know it is over. A FIFO opened
// non-blocking with no writer reads as ended at once; one whose writer holds it open without writing
// answers EAGAIN, and is given up after `idleMs` without a byte (Node has no synchronous poll(2), so
// the wait is a sleep that grows from 1 ms to 50 ms between tries, not a spin).
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

export type BoundedRead =
  | { bytes: Buffer }
  /** missing: nothing at the path; not-regular: `detail` names what is there ("a directory", "a pipe (FIFO)"); too-large: over the budget; unreadable: `detail` is the error code (IDLE_PIPE for a pipe whose writer went quiet). */
  | { refused: 'missing' | 'not-regular' | 'too-large' | 'unreadable'; detail: string };

export interface ReadOptions {
  /** Accept a FIFO (a named pipe, or the shell's <(…) as /dev/fd/N) as well as a regular file. */
  pipes?: boolean;
  /** How long a pipe may give nothing, its writer still there, before the read is given up. */
  idleMs?: number;
}

/** The `detail` of an unreadable pipe whose writer kept it open and sent nothing for the idle time. */
export const IDLE_PIPE = 'EIDLE';
/** A generator behind <(gen) may take a while to start; a hang is what takes longer than this. */
export const PIPE_IDLE_MS = 10_000;

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

/**
 * Reads at most maxBytes + 1 bytes from a FIFO opened non-blocking: EAGAIN means a writer is there
 * with nothing to say yet, 0 bytes that every writer is gone. Undefined when the writer sent nothing
 * for `idleMs`.
 */
function readPipe(fd: number, maxBytes: number, idleMs: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  let quietSince = Date.now();
  let pause = 1;
  while (total <= maxBytes) {
    const want = Math.min(CHUNK, maxBytes + 1 - total);
    const buf = Buffer.allocUnsafe(want);
    let n: number;
    try {
      n = readSync(fd, buf, 0, want, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      const waited = Date.now() - quietSince;
      if (waited >= idleMs) return undefined;
      Atomics.wait(PAUSE, 0, 0, Math.min(pause, idleMs - waited));
      pause = Math.min(pause * 2, 50);
      continue;
    }
    if (n === 0) break;
    chunks.push(n === want ? buf : buf.subarray(0, n));
    total += n;
    quietSince = Date.now();
    pause = 1;
  }
  return Buffer.concat(chunks, total);
}

/** The bytes of the regular file (or, with `pipes`, FIFO) at `path` (links followed), at most `maxBytes` of them, or why not. */
export function readBounded(path: string, maxBytes: number, options: ReadOptions = {}): BoundedRead {
  const accepted = (stat: Stats) => stat.isFile() || (options.pipes === true && stat.isFIFO());
  let before: Stats;
  try {
    before = statSync(path);
  } catch (e) {
    const code = codeOf(e);
    return code === 'ENOENT' || code === 'ENOTDIR' ? { refused: 'missing', detail: code } : { refused: 'unreadable', detail: code };
  }
  if (!accepted(before)) return { refused: 'not-regular', detail: fileKind(before) };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = codeOf(e);
    return code === 'ENOENT' ? { refused: 'missing', detail: code } : { refused: 'unreadable', detail: code };
  }
  try {
    const stat = fstatSync(fd);
    if (!accepted(stat)) return { refused: 'not-regular', detail: fileKind(stat) };
    const bytes = stat.isFIFO() ? readPipe(fd, maxBytes, options.idleMs ?? PIPE_IDLE_MS) : readBudget(fd, maxBytes);
    if (bytes === undefined) return { refused: 'unreadable', detail: IDLE_PIPE };
    if (bytes.length > maxBytes) return { refused: 'too-large', detail: String(maxBytes) };
    return { bytes };
  } catch (e) {
    return { refused: 'unreadable', detail: codeOf(e) };
  } finally {
    closeSync(fd);
  }
}
