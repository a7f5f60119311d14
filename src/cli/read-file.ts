// Reading a spec, or attn run's --text-file, for `attn` (the shared reader, core/files/read-bounded.ts:
// a regular file or a pipe such as the shell's <(gen), within a byte budget; a folder, socket or
// device is refused in one line before it is opened, so nothing reads /dev/zero for ever, and a pipe
// whose writer goes quiet is given up). Standard input ("-", /dev/stdin, /dev/fd/0) is read as it is,
// within the same budget. Bytes are decoded strictly: invalid UTF-8 and
// UTF-16 get a message at their place instead of silently becoming U+FFFD or "unexpected character",
// in the words of what the file was meant to be (a spec, or a text).
import { printable } from './terminal.js';
import { IDLE_PIPE, PIPE_IDLE_MS, readBounded, readBudget } from '../core/files/read-bounded.js';
import { sizeLimitMessage } from '../core/json/json-tree.js';
import { LineIndex } from '../core/json/problems.js';

export { readBudget } from '../core/files/read-bounded.js';

export type ReadOutcome = { text: string } | { error: string };

/** What the file is meant to be: a spec (JSON), or the text attn run reads (--text-file). */
export type Expected = 'a .attn.json file' | 'a text file';

/** Names that mean standard input. Opening /dev/stdin fails (ENXIO) when stdin is a socket, so fd 0 is used as it is. */
const STDIN = new Set(['-', '/dev/stdin', '/dev/fd/0']);

/** Whether `file` names standard input: every reader of a named file asks this one question. */
export const isStdin = (file: string): boolean => STDIN.has(file);

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

/**
 * UTF-16 shows itself by a byte-order mark, or, for text in Latin letters, by a NUL byte in every
 * other place (the high half of each character) while the other half is not all NUL. Other NUL
 * bytes are binary data, and are said to be that.
 */
export function looksUtf16(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return true;
  const n = Math.min(bytes.length, 64) & ~1;
  if (n < 4) return false;
  for (const zeroAt of [0, 1]) {
    let zeros = true, other = false;
    for (let i = 0; i < n; i += 2) {
      if (bytes[i + zeroAt] !== 0) zeros = false;
      if (bytes[i + 1 - zeroAt] !== 0) other = true;
    }
    if (zeros && other) return true;
  }
  return false;
}

function describeCode(code: string): string {
  if (code === IDLE_PIPE) return `a pipe whose writer sent nothing for ${PIPE_IDLE_MS / 1000} s; gave up waiting`;
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read (${code})`;
}

/** The line:column of byte `offset` of `bytes` (the bytes before it being valid UTF-8). */
function placeOf(bytes: Buffer, offset: number): string {
  const before = bytes.subarray(0, offset).toString('utf8');
  const { line, column } = new LineIndex(before).positionAt(before.length);
  return `${line}:${column}`;
}

/**
 * The file's text, or the one line to print (without the file name) when it cannot be used as what
 * `expected` names: a spec (JSON), or attn run's --text-file, each told about in its own words.
 */
export function readSpecText(file: string, maxBytes: number, expected: Expected = 'a .attn.json file'): ReadOutcome {
  const text = expected === 'a text file';
  let bytes: Buffer;
  if (isStdin(file)) {
    try {
      bytes = readBudget(0, maxBytes);
    } catch (e) {
      return { error: `cannot read standard input (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
    }
    if (bytes.length > maxBytes) return { error: tooLarge(text, maxBytes) };
  } else {
    const read = readBounded(file, maxBytes, { pipes: true });
    if ('refused' in read) {
      switch (read.refused) {
        case 'missing': return { error: 'no such file' };
        case 'unreadable': return { error: describeCode(read.detail) };
        case 'too-large': return { error: tooLarge(text, maxBytes) };
        case 'not-regular': return { error: read.detail === 'a directory' ? `is a directory, expected ${expected}` : `is ${read.detail}, not a file: expected ${expected} (give - to read standard input)` };
      }
    }
    bytes = read.bytes;
  }
  return decodeBytes(bytes, expected);
}

/** The bytes as UTF-8 text, or the one line (with its place) saying why they are not `expected`. */
export function decodeBytes(bytes: Buffer, expected: Expected = 'a .attn.json file'): ReadOutcome {
  const text = expected === 'a text file';
  if (looksUtf16(bytes)) return { error: `1:1: the file is UTF-16; save it as UTF-8 (${text ? 'a text file is read as UTF-8' : 'JSON files are UTF-8'})` };
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    return { error: `${placeOf(bytes, bad)}: the file is not valid UTF-8 (byte 0x${bytes[bad].toString(16).padStart(2, '0')} at offset ${bad}); save it as UTF-8` };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { error: `${placeOf(bytes, nul)}: the file holds a NUL byte (at offset ${nul}): it is binary, not ${text ? 'text' : 'a JSON spec'}` };
  return { text: bytes.toString('utf8') };
}

function tooLarge(text: boolean, maxBytes: number): string {
  if (!text) return `1:1: ${sizeLimitMessage(undefined, maxBytes)}`;
  return `the text is over the ${maxBytes.toLocaleString('en-US')}-byte limit (--max-bytes): give a shorter text`;
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
