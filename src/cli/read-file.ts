// Reading a spec file for `attn` with a byte budget. The size a file reports cannot be trusted:
// /dev/zero, a FIFO or /dev/stdin report 0 and never end, so the reader counts what it reads and
// stops one byte past the budget. Bytes are decoded strictly: invalid UTF-8 and UTF-16 get a
// message at their place instead of silently becoming U+FFFD or "unexpected character".
import { printable } from './terminal.js';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { sizeLimitMessage } from '../core/json/json-tree.js';
import { LineIndex } from '../core/json/problems.js';

export type ReadOutcome = { text: string } | { error: string };

const CHUNK = 64 * 1024;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
/** Names that mean standard input. Opening /dev/stdin fails (ENXIO) when stdin is a socket, so fd 0 is used as it is. */
const STDIN = new Set(['-', '/dev/stdin']);

/** Reads at most maxBytes + 1 bytes: enough to know the file is over the budget. */
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

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return i;
    if (i + need >= bytes.length && need > 0) return i;
    for (let k = 1; k <= need; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    // overlong, surrogate and out-of-range forms
    if (need === 2 && ((b === 0xe0 && bytes[i + 1] < 0xa0) || (b === 0xed && bytes[i + 1] >= 0xa0))) return i;
    if (need === 3 && ((b === 0xf0 && bytes[i + 1] < 0x90) || (b === 0xf4 && bytes[i + 1] >= 0x90))) return i;
    i += need + 1;
  }
  return -1;
}

/** UTF-16 shows itself by a byte-order mark, or by a NUL byte beside most ASCII characters. */
function looksUtf16(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return true;
  const n = Math.min(bytes.length, 64);
  let nul = 0;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) nul++;
  return n >= 4 && nul >= n / 4;
}

function describeError(e: unknown, expected: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? `is a directory, expected ${expected}` : `cannot read (${code ?? String(e)})`;
}

/**
 * The file's text, or the one line to print (without the file name) when it cannot be used as a spec
 * (or as what `expected` names: attn run's --text-file is read here too).
 */
export function readSpecText(file: string, maxBytes: number, expected = 'a .attn.json file'): ReadOutcome {
  let fd: number;
  const stdin = STDIN.has(file);
  try {
    fd = stdin ? 0 : openSync(file, 'r');
  } catch (e) {
    return { error: describeError(e, expected) };
  }
  let bytes: Buffer;
  try {
    if (fstatSync(fd).isDirectory()) return { error: `is a directory, expected ${expected}` };
    bytes = readBudget(fd, maxBytes);
  } catch (e) {
    return { error: describeError(e, expected) };
  } finally {
    if (!stdin) closeSync(fd);
  }
  if (bytes.length > maxBytes) return { error: `1:1: ${sizeLimitMessage(undefined, maxBytes)}` };
  if (looksUtf16(bytes)) return { error: '1:1: the file is UTF-16; save it as UTF-8 (JSON files are UTF-8)' };
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString('utf8');
    const { line, column } = new LineIndex(before).positionAt(before.length);
    return { error: `${line}:${column}: the file is not valid UTF-8 (byte 0x${bytes[bad].toString(16).padStart(2, '0')} at offset ${bad}); save it as UTF-8` };
  }
  return { text: bytes.toString('utf8') };
}

/** The spec's text, or undefined after printing why it cannot be read (FILE:LINE:COL: … or FILE: …). */
export function readSpecFile(file: string, maxBytes: number, io: { err(text: string): void }): string | undefined {
  const outcome = readSpecText(file, maxBytes);
  if ('error' in outcome) {
    // A message with a place reads FILE:LINE:COL: …, one without FILE: …
    io.err(`${printable(file)}:${/^\d/.test(outcome.error) ? '' : ' '}${outcome.error}`);
    return undefined;
  }
  return outcome.text;
}
