// Where a tensor file's bytes come from. Attention files are large (12 × 12 × 1,024² × 2 bytes is
// 302 MB), so nothing reads a whole file: readers ask for the slice at an offset they need. A file's
// reported size is only a first guess (a FIFO or /dev/zero report 0 or never end): only regular
// files are opened, and every read must return all the bytes it asked for, else the file is truncated.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Bytes at offsets: a file on disk or, for a zip entry or a test, bytes in memory. */
export interface ByteSource {
  /** The name used in messages. */
  readonly name: string;
  readonly size: number;
  /** Exactly `length` bytes at `offset`; throws TensorFileError when the source ends first. */
  read(offset: number, length: number): Uint8Array;
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

export function fileSource(path: string): ByteSource {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading otherwise waits for a writer, for ever; fstat below
    // then refuses it. A regular file's reads are not changed by the flag.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new TensorFileError(`${path}: cannot open (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new TensorFileError(`${path}: not a regular file (a tensor file is read at offsets, which a pipe or device does not allow)`);
  }
  return {
    name: path,
    size: stat.size,
    read(offset, length) {
      checkRange(path, offset, length, stat.size);
      if (length > MAX_READ_BYTES) throw new TensorFileError(`${path}: one read of ${length} bytes is over the ${MAX_READ_BYTES}-byte limit`);
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, offset + done);
        if (n === 0) throw new TensorFileError(`${path}: truncated: the data ends at byte ${offset + done}, ${length - done} bytes before the end the header promised`);
        done += n;
      }
      return buf;
    },
    close() { closeSync(fd); },
  };
}

function checkRange(name: string, offset: number, length: number, size: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new TensorFileError(`${name}: a read at offset ${offset} of ${length} bytes is not a valid range`);
  }
  if (offset + length > size) {
    throw new TensorFileError(`${name}: truncated: bytes ${offset}…${offset + length} are needed but the file has ${size}`);
  }
}
