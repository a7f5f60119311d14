// Which tensors a file holds, by its first bytes (.npy, .npz, safetensors), whoever reads the bytes:
// the disk's files (core/files/open.ts, with its .npz reader on node:zlib) or bytes already in memory
// (the web build, which has no zlib and so no .npz). Pure.
import type { TensorRef } from './attention-file.js';
import { isNpy, readNpy } from './npy.js';
import { metadataTokens, readSafetensors } from './safetensors.js';
import { TensorFileError, type ByteSource } from './source.js';

export interface FoundTensors {
  tensors: TensorRef[];
  tokens?: string[];
  /** The bytes of the chosen deflated .npz members, inflated into memory. */
  inflated?: number;
}

/** What this file reads of a zip member (core/files/zip.ts has the rest). */
export interface NpzEntry {
  name: string;
  /** 0 stored, else deflated. */
  method: number;
  size: number;
}

/**
 * An .npz's zip members (core/files/zip.ts, given by the caller that has node:zlib): listed, each one's
 * bytes, and the cap on their inflated total.
 */
export interface NpzReader<E extends NpzEntry> {
  zipEntries(source: ByteSource): E[];
  entrySource(source: ByteSource, entry: E): { source: ByteSource; start: number };
  checkInflatedTotal(file: string, entries: readonly E[]): void;
}

/** Zip's local-file or empty-archive signature: an .npz. */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5);
}

/**
 * The tensors of a file, by its first bytes: .npy (one), .npz (its .npy members, read by `npz`), else
 * safetensors; `wanted` keeps one by name. Without an .npz reader (the web build: no zlib) an .npz is
 * refused in one line.
 */
export function findTensorsIn<E extends NpzEntry>(source: ByteSource, wanted: string | undefined, npz?: NpzReader<E>): FoundTensors {
  const head = source.read(0, Math.min(8, source.size));
  if (isNpy(head)) {
    // An .npy holds one unnamed array: a name asked of it would otherwise be ignored without a word.
    if (wanted !== undefined) throw new TensorFileError(`${source.name}: an .npy file holds one unnamed array, so there is no tensor ${JSON.stringify(wanted)} in it; leave out "tensor"`);
    const t = readNpy(source, 'array');
    return { tensors: [t] };
  }
  if (isZip(head)) {
    if (!npz) throw new TensorFileError(`${source.name}: an .npz file is read on the desktop only (its members are inflated with zlib); save the arrays as .npy or .safetensors`);
    const { zipEntries, entrySource, checkInflatedTotal } = npz;
    const entries = zipEntries(source).filter((e) => e.name.endsWith('.npy'));
    const chosen = entries.filter((e) => wanted === undefined || e.name === `${wanted}.npy`);
    checkInflatedTotal(source.name, chosen);
    const tensors = chosen
      .map((e) => {
        const { source: entry, start } = entrySource(source, e);
        return readNpy(entry, e.name.slice(0, -4), start);
      });
    if (wanted !== undefined && tensors.length === 0) throw notFound(source.name, wanted, entries.map((e) => e.name.slice(0, -4)));
    const inflated = chosen.reduce((sum, e) => sum + (e.method === 0 ? 0 : e.size), 0);
    return { tensors, ...(inflated > 0 ? { inflated } : {}) };
  }
  const { tensors, metadata } = readSafetensors(source);
  const chosen = wanted === undefined ? tensors : tensors.filter((t) => t.name === wanted);
  if (wanted !== undefined && chosen.length === 0) throw notFound(source.name, wanted, tensors.map((t) => t.name));
  return { tensors: chosen, tokens: metadataTokens(source.name, metadata) };
}

function notFound(file: string, wanted: string, names: string[]): TensorFileError {
  const list = names.slice(0, 10).map((n) => JSON.stringify(n)).join(', ');
  return new TensorFileError(`${file}: no tensor ${JSON.stringify(wanted)}; the file has ${list || 'none'}${names.length > 10 ? `, … (${names.length})` : ''}`);
}
