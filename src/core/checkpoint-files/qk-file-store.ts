// The kept queries and keys of a long run in a private temporary file rather than in memory
// (model-attention/qk-store.ts: 1.34 GB at 8,192 tokens of a Llama-3.2-1B): a folder of its own made
// by mkdtemp (0700), the file in it created 0600, and on POSIX both unlinked at once, so only this
// process's open descriptor reaches them and nothing is left behind however the process ends. Where
// an open file cannot be unlinked (Windows), close() deletes them, and so does the process's exit.
// The file is written a head at a time as the forward pass makes it and read back a block of rows
// at a time as the views ask; the page cache, not the process, holds what is read often.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkQk, headSlot, qkBytes, type QkShape, type QkStore } from '../model-attention/qk-store.js';

/** What is left to delete at exit: the folders of stores not closed. */
const pending = new Set<string>();
let hooked = false;

function removeAll(): void {
  for (const dir of pending) {
    try { rmSync(dir, { recursive: true, force: true }); } catch { /* already gone */ }
  }
  pending.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', removeAll);
}

export interface FileStoreOptions {
  /** The folder to make the private folder in (default: the system's temporary folder). */
  parent?: string;
  /** false: keep the file's name until close (what a platform that cannot unlink an open file gets). */
  unlinkOpen?: boolean;
}

/** A store of q and k in a private temporary file; close() (or the process's end) deletes it. */
export function fileQkStore(shape: QkShape, options: FileStoreOptions = {}): QkStore {
  const size = qkBytes(shape);
  if (!(Number.isSafeInteger(size) && size >= 0)) throw new RangeError(`q and k of ${shape.layers} layers × ${shape.heads} + ${shape.kvHeads} heads × ${shape.n} × ${shape.headDim} are too many to keep`);
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'attn-qk-'));
  const path = join(dir, 'qk.f32');
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  let unlinked = false;
  if (options.unlinkOpen !== false) {
    try {
      unlinkSync(path);
      rmSync(dir, { recursive: true, force: true });
      unlinked = true;
    } catch { /* deleted at close or exit */ }
  }
  if (!unlinked) {
    pending.add(dir);
    hookExit();
  }
  const headBytes = shape.n * shape.headDim * 4;
  let closed = false;
  const check = () => { if (closed) throw new Error('the kept queries and keys were let go'); };
  return {
    shape, kind: 'file',
    write(layer, part, head, data) {
      check();
      checkQk(shape, layer, part, head, 0, shape.n);
      if (data.length !== shape.n * shape.headDim) throw new RangeError(`a head of ${shape.n} × ${shape.headDim} cannot hold ${data.length} numbers`);
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      const at = headSlot(shape, layer, part, head) * headBytes;
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
    },
    read(layer, part, head, first, rows) {
      check();
      checkQk(shape, layer, part, head, first, rows);
      const out = new Float32Array(rows * shape.headDim);
      const bytes = new Uint8Array(out.buffer);
      const at = headSlot(shape, layer, part, head) * headBytes + first * shape.headDim * 4;
      for (let done = 0; done < bytes.length;) {
        const got = readSync(fd, bytes, done, bytes.length - done, at + done);
        // Past the end: a head never written reads as short.
        if (got === 0) throw new RangeError(`layer ${layer} ${part} head ${head} was not kept`);
        done += got;
      }
      return out;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
      if (!unlinked) {
        rmSync(dir, { recursive: true, force: true });
        pending.delete(dir);
      }
    },
  };
}
