// The few parts of the zip format an .npz needs (np.savez and np.savez_compressed write it): the
// end-of-central-directory record (and its ZIP64 form, which numpy always asks for), the central
// directory's entries, each entry's local header, and stored or deflated data. Deflated entries are
// inflated by the caller's Inflate (node:zlib on a disk, open.ts; on the web, the host's inflated
// bytes) under a cap on their size, so a zip bomb stops at the cap, and checked by the caller's CRC-32
// (Node's native one on a disk, the pure table on the web). No Node here: the web takes it.
import { isZip } from '../tensors/find-tensors.js';
import { TensorFileError, memorySource, type ByteSource } from '../tensors/source.js';

/** Zip's signature (an .npz), kept with the bytes-only reading of a file's tensors. */
export { isZip };

export interface ZipEntry {
  name: string;
  method: number;
  /** The CRC-32 the directory gives for the member's uncompressed bytes. */
  crc: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

/** Most bytes we inflate into memory, for one entry and for all the entries of one archive read together. */
export const MAX_INFLATED_BYTES = 512 * 1024 * 1024;
const MAX_ENTRIES = 65536;

function dataView(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

const u64 = (v: DataView, at: number) => v.getUint32(at + 4, true) * 2 ** 32 + v.getUint32(at, true);

export function zipEntries(source: ByteSource): ZipEntry[] {
  const file = source.name;
  const tailLength = Math.min(source.size, 22 + 65535);
  const tail = source.read(source.size - tailLength, tailLength);
  const ev = dataView(tail);
  // The real end record is followed by its comment alone, so its comment length reaches exactly to
  // the end of the file, and its directory lies before it. A comment may hold the signature too (a
  // fake record): of the records that fit both, the earliest is the real one (the later ones are in
  // its comment). With none that fits, the last signature (bytes appended after an archive).
  const tailStart = source.size - tailLength;
  const fits = (i: number) => {
    if (i + 22 + ev.getUint16(i + 20, true) !== tail.length) return false;
    const size = ev.getUint32(i + 12, true), offset = ev.getUint32(i + 16, true);
    if (size === 0xffffffff || offset === 0xffffffff) return true; // ZIP64: checked at its own record
    return offset + size <= tailStart + i;
  };
  let eocd = -1, last = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail[i] !== 0x50 || tail[i + 1] !== 0x4b || tail[i + 2] !== 5 || tail[i + 3] !== 6) continue;
    if (last < 0) last = i;
    if (fits(i)) eocd = i;
  }
  if (eocd < 0) eocd = last;
  if (eocd < 0) throw new TensorFileError(`${file}: no zip end record (truncated .npz?)`);
  let count = ev.getUint16(eocd + 10, true);
  let cdSize = ev.getUint32(eocd + 12, true);
  let cdOffset = ev.getUint32(eocd + 16, true);
  const eocdAbsolute = source.size - tailLength + eocd;
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // ZIP64: a 20-byte locator just before the end record points at the ZIP64 end record.
    if (eocdAbsolute < 20) throw new TensorFileError(`${file}: a ZIP64 archive without its locator`);
    const loc = dataView(source.read(eocdAbsolute - 20, 20));
    if (loc.getUint32(0, true) !== 0x07064b50) throw new TensorFileError(`${file}: a ZIP64 archive without its locator`);
    const rec = dataView(source.read(u64(loc, 8), 56));
    if (rec.getUint32(0, true) !== 0x06064b50) throw new TensorFileError(`${file}: the ZIP64 end record is not where its locator says`);
    count = u64(rec, 32);
    cdSize = u64(rec, 40);
    cdOffset = u64(rec, 48);
  }
  if (count > MAX_ENTRIES) throw new TensorFileError(`${file}: ${count} entries, more than the ${MAX_ENTRIES} we read`);
  if (cdOffset + cdSize > source.size) throw new TensorFileError(`${file}: the zip directory reaches past the end of the file (truncated?)`);
  const cd = source.read(cdOffset, cdSize);
  const cv = dataView(cd);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let e = 0; e < count; e++) {
    if (at + 46 > cd.length || cv.getUint32(at, true) !== 0x02014b50) throw new TensorFileError(`${file}: zip directory entry ${e} is damaged`);
    const flags = cv.getUint16(at + 8, true);
    const method = cv.getUint16(at + 10, true);
    const crc = cv.getUint32(at + 16, true);
    let compressedSize = cv.getUint32(at + 20, true);
    let size = cv.getUint32(at + 24, true);
    const nameLength = cv.getUint16(at + 28, true), extraLength = cv.getUint16(at + 30, true), commentLength = cv.getUint16(at + 32, true);
    let localHeader = cv.getUint32(at + 42, true);
    if (at + 46 + nameLength + extraLength + commentLength > cd.length) throw new TensorFileError(`${file}: zip directory entry ${e} is damaged`);
    const name = new TextDecoder().decode(cd.subarray(at + 46, at + 46 + nameLength));
    // ZIP64 extra field (id 1): the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
    let x = at + 46 + nameLength;
    const extraEnd = x + extraLength;
    while (x + 4 <= extraEnd) {
      const id = cv.getUint16(x, true), len = cv.getUint16(x + 2, true);
      if (x + 4 + len > extraEnd) throw new TensorFileError(`${file}: ${name}: an extra field of its zip directory entry runs past the entry (${len} bytes where ${extraEnd - x - 4} are left)`);
      if (id === 1) {
        let p = x + 4;
        const next = () => { if (p + 8 > x + 4 + len) throw new TensorFileError(`${file}: ${name}: ZIP64 extra field is too short`); const v = u64(cv, p); p += 8; return v; };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localHeader === 0xffffffff) localHeader = next();
      }
      x += 4 + len;
    }
    if (flags & 1) throw new TensorFileError(`${file}: ${name} is encrypted`);
    entries.push({ name, method, crc, compressedSize, size, localHeader });
    at += 46 + nameLength + extraLength + commentLength;
  }
  // A directory is data from the file: two entries of one name make "which one?" a guess, and two
  // entries on one member's bytes are the overlapping zip bomb (one deflated member inflated again
  // and again). Neither is in an archive numpy writes. Sorted once: n log n, not every pair.
  const byName = entries.map((e) => e.name).sort();
  for (let i = 1; i < byName.length; i++) {
    if (byName[i] === byName[i - 1]) throw new TensorFileError(`${file}: two members are named ${JSON.stringify(byName[i])}`);
  }
  const byPlace = entries.map((e, i) => ({ at: e.localHeader, i })).sort((a, b) => a.at - b.at || a.i - b.i);
  for (let k = 1; k < byPlace.length; k++) {
    if (byPlace[k].at === byPlace[k - 1].at) {
      throw new TensorFileError(`${file}: ${JSON.stringify(entries[byPlace[k].i].name)} and ${JSON.stringify(entries[byPlace[k - 1].i].name)} share their bytes at offset ${byPlace[k].at} (a crafted archive)`);
    }
  }
  return entries;
}

/** Refuses, from the directory alone, deflated members that would take more than the cap together once inflated. */
export function checkInflatedTotal(file: string, entries: readonly ZipEntry[]): void {
  let total = 0;
  for (const e of entries) if (e.method !== 0) total += e.size;
  if (total > MAX_INFLATED_BYTES) {
    throw new TensorFileError(`${file}: its deflated members would take ${total} bytes inflated, over the ${MAX_INFLATED_BYTES}-byte limit together; save with np.savez (not compressed) to open it at offsets`);
  }
}

/** A deflated member's bytes inflated, at most `entry.size` of them (and one more, to tell a longer stream). */
export type Inflate = (deflated: Uint8Array, entry: ZipEntry) => Uint8Array;

/** How members are read: inflated, and their CRC-32 (continuing from `value`) taken. */
export interface MemberReading {
  inflate: Inflate;
  crc32(data: Uint8Array, value?: number): number;
}

/** Where a member's data starts in the file (after its local header), checked to lie within it. */
export function entryDataStart(source: ByteSource, entry: ZipEntry): number {
  const where = `${source.name}: ${entry.name}`;
  const local = dataView(source.read(entry.localHeader, 30));
  if (local.getUint32(0, true) !== 0x04034b50) throw new TensorFileError(`${where}: the zip entry's local header is missing`);
  const dataStart = entry.localHeader + 30 + local.getUint16(26, true) + local.getUint16(28, true);
  if (dataStart + entry.compressedSize > source.size) throw new TensorFileError(`${where}: truncated: the entry reaches past the end of the file`);
  return dataStart;
}

/** The entry's bytes: a window on the file when stored, inflated into memory (under the cap) when deflated. */
export function entrySource(source: ByteSource, entry: ZipEntry, { inflate, crc32 }: MemberReading): { source: ByteSource; start: number } {
  const where = `${source.name}: ${entry.name}`;
  const dataStart = entryDataStart(source, entry);
  if (entry.method === 0) {
    if (entry.size !== entry.compressedSize) throw new TensorFileError(`${where}: a stored entry whose sizes differ`);
    checkCrc(where, entry, storedCrc(source, dataStart, entry.size, crc32));
    return { source: windowSource(source, dataStart, entry.size, where), start: 0 };
  }
  if (entry.method !== 8) throw new TensorFileError(`${where}: zip compression method ${entry.method} is not one we read (stored or deflated)`);
  if (entry.size > MAX_INFLATED_BYTES) throw new TensorFileError(`${where}: ${entry.size} bytes inflated is over the ${MAX_INFLATED_BYTES}-byte limit; save with np.savez (not compressed) to open it at offsets`);
  let bytes: Uint8Array;
  try {
    bytes = inflate(source.read(dataStart, entry.compressedSize), entry);
  } catch (e) {
    throw new TensorFileError(`${where}: the deflated data is damaged or larger than its declared ${entry.size} bytes (${e instanceof Error ? e.message : String(e)})`);
  }
  if (bytes.length !== entry.size) throw new TensorFileError(`${where}: inflated to ${bytes.length} bytes, not the declared ${entry.size}`);
  checkCrc(where, entry, crc32(bytes));
  return { source: memorySource(where, bytes), start: 0 };
}

/** Bytes read at a time to check a stored member's CRC (its data is read once, in blocks, when it is opened). */
const CRC_BLOCK = 16 * 1024 * 1024;

/**
 * The CRC-32 of a stored member's bytes. Checked when the member is opened, as numpy's zipfile
 * checks it: a damaged or altered member is refused rather than shown as data. Only members a
 * reader opens are read for it, so a spec's small tensor in a big .npz reads that member alone.
 */
function storedCrc(source: ByteSource, start: number, size: number, crc32: MemberReading['crc32']): number {
  let crc = 0;
  for (let at = 0; at < size; at += CRC_BLOCK) crc = crc32(source.read(start + at, Math.min(CRC_BLOCK, size - at)), crc);
  return crc;
}

function checkCrc(where: string, entry: ZipEntry, actual: number): void {
  if (actual !== entry.crc) throw new TensorFileError(`${where}: its bytes do not match the zip's CRC-32 (${hex(actual)}, the directory says ${hex(entry.crc)}): the file is damaged or was altered`);
}

const hex = (v: number) => `0x${v.toString(16).padStart(8, '0')}`;

/** Part of a source seen as a whole one (closing it leaves the file open: its owner closes that). */
function windowSource(parent: ByteSource, start: number, size: number, name: string): ByteSource {
  return {
    name,
    size,
    read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) throw new TensorFileError(`${name}: truncated: bytes ${offset}…${offset + length} are needed but the entry has ${size}`);
      return parent.read(start + offset, length);
    },
    close() { /* the parent is closed by its owner */ },
  };
}
