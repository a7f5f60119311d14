// Where a tensor file's bytes come from. Attention files are large (12 × 12 × 1,024² × 2 bytes is
// 302 MB), so nothing reads a whole file: readers ask for the slice at an offset they need. A file's
// reported size is only a first guess (a FIFO or /dev/zero report 0 or never end): only regular
// files are opened (src/core/files/file-source.ts), and every read must return all the bytes it asked for,
// else the file is truncated. This file is pure: the browser bundle takes it.

/** Bytes at offsets: a file on disk or, for a zip entry or a test, bytes in memory. */
export interface ByteSource {
  /** The name used in messages. */
  readonly name: string;
  readonly size: number;
  /** Exactly `length` bytes at `offset`; throws TensorFileError when the source ends first. */
  read(offset: number, length: number): Uint8Array;
  /**
   * Exactly target.length bytes at `offset`, into `target` (a weight's own memory, so a model's
   * hundreds of megabytes are not read into a buffer and then copied). Optional: without it,
   * callers read and copy.
   */
  readInto?(offset: number, target: Uint8Array): void;
  close(): void;
}

/** A problem with a tensor file: the message names the file and says what is wrong there. */
export class TensorFileError extends Error {
  override name = 'TensorFileError';
}

/** Largest single read: one head's n × n at n = 4,096 in F64 is 128 MiB. */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

export function memorySource(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    size: bytes.length,
    read(offset, length) {
      checkRange(name, offset, length, bytes.length);
      return bytes.subarray(offset, offset + length);
    },
    close() { /* nothing held */ },
  };
}

/** Throws unless [offset, offset + length) lies within a source of `size` bytes. */
export function checkRange(name: string, offset: number, length: number, size: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new TensorFileError(`${name}: a read at offset ${offset} of ${length} bytes is not a valid range`);
  }
  if (offset + length > size) {
    throw new TensorFileError(`${name}: truncated: bytes ${offset}…${offset + length} are needed but the file has ${size}`);
  }
}
