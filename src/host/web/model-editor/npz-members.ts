// An .npz's deflated members on the web (np.savez_compressed): the core inflates them synchronously
// with node:zlib on a disk, which the web has not; the browser's DecompressionStream is asynchronous,
// so the host inflates the members the reader will open before it hands the bytes over, and the
// reader takes them by name (file-answers.ts), checked as a disk's are (their declared size, their
// CRC-32). Stored members (np.savez) need nothing: they are read in place. What cannot be inflated
// is left for the reader to say, in the desktop's words.
import { checkInflatedTotal, entryDataStart, MAX_INFLATED_BYTES, zipEntries } from '../../../core/files/zip.js';
import { isZip } from '../../../core/tensors/find-tensors.js';
import { memorySource } from '../../../core/tensors/source.js';
import type { OpenOptions } from '../../../core/files/attention-bytes.js';

/** Inflated members by name: their bytes, or why they could not be inflated. */
export type InflatedMembers = Record<string, ArrayBuffer | string>;

/** The members would inflate to more than the room left: `declared` bytes, their sizes summed from the directory. */
export class MembersOverRoom extends Error {
  constructor(readonly declared: number) {
    super(`the deflated members declare ${declared} bytes`);
  }
}

/**
 * The deflated .npy members of `bytes` that a reader opening them with `open` reads, inflated (none
 * when the bytes are no .npz, or the reader will refuse the archive anyway). Throws MembersOverRoom,
 * before inflating any, when their declared sizes add up to more than `room` bytes: what is inflated
 * is allocated at its declared size and never past it, so the sum bounds what is held.
 */
export async function inflateMembers(name: string, bytes: Uint8Array, open: OpenOptions | undefined, room = Infinity): Promise<InflatedMembers | undefined> {
  if (!isZip(bytes.subarray(0, 8))) return undefined;
  const source = memorySource(name, bytes);
  let chosen;
  try {
    chosen = zipEntries(source).filter((e) => e.name.endsWith('.npy') && (open?.tensor === undefined || e.name === `${open.tensor}.npy`));
    checkInflatedTotal(name, chosen);
  } catch {
    return undefined; // the reader parses the directory again and says what is wrong with it
  }
  const deflated = chosen.filter((e) => e.method === 8 && e.size <= MAX_INFLATED_BYTES);
  const declared = deflated.reduce((sum, e) => sum + e.size, 0);
  if (declared > room) throw new MembersOverRoom(declared);
  const members: InflatedMembers = {};
  for (const entry of deflated) {
    let start: number;
    try {
      start = entryDataStart(source, entry);
    } catch {
      continue;
    }
    try {
      members[entry.name] = (await inflateRaw(bytes.subarray(start, start + entry.compressedSize), entry.size)).buffer as ArrayBuffer;
    } catch (e) {
      members[entry.name] = e instanceof Error ? e.message : String(e);
    }
  }
  return members;
}

/** Raw deflate data inflated into one buffer of `size` bytes; throws as soon as it would be longer (a zip bomb stops there). */
export async function inflateRaw(deflated: Uint8Array, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let filled = 0;
  const reader = new Blob([deflated as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (filled + value.byteLength > size) {
      await reader.cancel();
      throw new Error(`it inflates past its declared ${size} bytes`);
    }
    out.set(value, filled);
    filled += value.byteLength;
  }
  return filled === size ? out : out.slice(0, filled);
}
