// Opening an attention file: which format (by its first bytes, so a renamed file still opens),
// which tensors, and the tokens (safetensors' __metadata__.tokens, else a sidecar X.tokens.json
// beside X.npy / X.npz / X.safetensors, else the caller's, as a spec's "tokens").
import type { AttentionSource } from '../tensors/attention-source.js';
import { findTensorsIn, type FoundTensors, type NpzReader } from '../tensors/find-tensors.js';
import { TensorFileError, type ByteSource } from '../tensors/source.js';
import { attentionFrom, MAX_TOKENS_FILE_BYTES, sidecarPath, sidecarTooLarge, tokensOfSidecar, type OpenOptions } from './attention-bytes.js';
import { fileSource } from './file-source.js';
import { readBounded } from './read-bounded.js';
import { inflateRawSync } from 'node:zlib';
import { checkInflatedTotal, entrySource, zipEntries, type MemberReading, type ZipEntry } from './zip.js';
import { crc32 } from './crc32.js';

// The bytes' half (no Node) is attention-bytes.ts, which the web build opens files with.
export { MAX_TOKENS_FILE_BYTES, sidecarPath, type OpenOptions };

export function openAttention(path: string, options: OpenOptions = {}): AttentionSource {
  return attentionOf(fileSource(path), options, path);
}

/**
 * The attention in `source` (bytes already in memory, as standard input is), closed when the file is;
 * `path`, when the bytes are a file's, is where its tokens may be kept beside it.
 */
export function attentionOf(source: ByteSource, options: OpenOptions = {}, path?: string): AttentionSource {
  return attentionFrom(source, options, { npz: NPZ, ...(path !== undefined ? { sidecar: () => sidecarTokens(path) } : {}) });
}

/**
 * The tensors of a file, by its first bytes: .npy (one), .npz (its .npy members, inflated with node:zlib
 * under a cap), else safetensors; `wanted` keeps one by name (core/tensors/find-tensors.ts).
 */
export function findTensors(source: ByteSource, wanted: string | undefined): FoundTensors {
  return findTensorsIn(source, wanted, NPZ);
}

/**
 * A member inflated with node:zlib, in one output chunk of the declared size (and one byte to tell a
 * longer stream): zlib otherwise gathers chunks and joins them, holding the member twice (1 GB for a
 * 503 MB member) until a collection.
 */
const DISK: MemberReading = {
  inflate: (deflated, entry) => inflateRawSync(deflated, { maxOutputLength: Math.max(1, entry.size), chunkSize: Math.max(64, entry.size + 1) }),
  crc32,
};

/** The .npz reader of a disk: zip members inflated with node:zlib, checked with its native CRC-32. */
const NPZ: NpzReader<ZipEntry> = { zipEntries, entrySource: (source, entry) => entrySource(source, entry, DISK), checkInflatedTotal };

/** X.tokens.json beside X.npy (or .npz, .safetensors): a JSON array of strings; undefined when there is none. */
export function sidecarTokens(path: string): string[] | undefined {
  const sidecar = sidecarPath(path);
  if (sidecar === path) return undefined;
  // A FIFO named X.tokens.json is refused at once, never waited on.
  const read = readBounded(sidecar, MAX_TOKENS_FILE_BYTES);
  if ('refused' in read) {
    switch (read.refused) {
      case 'missing': return undefined;
      case 'not-regular': throw new TensorFileError(`${sidecar}: not a regular file (${read.detail}); a tokens file is a JSON array of strings`);
      case 'too-large': throw new TensorFileError(sidecarTooLarge(sidecar));
      case 'unreadable': throw new TensorFileError(`${sidecar}: cannot open (${read.detail})`);
    }
  }
  return tokensOfSidecar(sidecar, read.bytes);
}
