// A tensor file on disk as a ByteSource (src/core/tensors/source.ts): opened once, read at offsets.
// Only a regular file is opened, without blocking (a FIFO would wait for a writer for ever), and every
// read must return all the bytes it asked for, else the file is truncated.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { checkRange, MAX_READ_BYTES, TensorFileError, type ByteSource } from '../tensors/source.js';

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
