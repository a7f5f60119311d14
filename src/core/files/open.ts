// Opening an attention file: which format (by its first bytes, so a renamed file still opens),
// which tensors, and the tokens (safetensors' __metadata__.tokens, else a sidecar X.tokens.json
// beside X.npy / X.npz / X.safetensors, else the caller's, as a spec's "tokens").
import { attentionFromTensors } from '../tensors/attention-file.js';
import type { AttentionSource } from '../tensors/attention-source.js';
import { findTensorsIn, type FoundTensors, type NpzReader } from '../tensors/find-tensors.js';
import { TensorFileError, type ByteSource } from '../tensors/source.js';
import { fileSource } from './file-source.js';
import { readBounded } from './read-bounded.js';
import { checkInflatedTotal, entrySource, zipEntries, type ZipEntry } from './zip.js';

export interface OpenOptions {
  /** Use only this tensor (a safetensors name, or an .npz member without .npy). */
  tensor?: string;
  /**
   * Tokens a spec gives for the file: they are used even when the file has its own (the spec says what
   * to show), and a note among the warnings says so when the two differ.
   */
  tokens?: string[];
}

/** A sidecar tokens file is small: a few thousand strings. */
export const MAX_TOKENS_FILE_BYTES = 4 * 1024 * 1024;

export function openAttention(path: string, options: OpenOptions = {}): AttentionSource {
  return attentionOf(fileSource(path), options, path);
}

/**
 * The attention in `source` (bytes already in memory, as standard input is), closed when the file is;
 * `path`, when the bytes are a file's, is where its tokens may be kept beside it.
 */
export function attentionOf(source: ByteSource, options: OpenOptions = {}, path?: string): AttentionSource {
  try {
    const { tensors, tokens, inflated } = findTensors(source, options.tensor);
    const own = tokens ?? (path !== undefined ? sidecarTokens(path) : undefined);
    const a = attentionFromTensors(source.name, tensors, options.tokens ?? own, () => source.close());
    if (inflated) a.inflated = inflated;
    if (options.tokens && own && own.join('\u0000') !== options.tokens.join('\u0000')) {
      const first = own.slice(0, 4).map((t) => JSON.stringify(t)).join(' ');
      a.notes = [...(a.notes ?? []), `the spec's tokens are shown, not the file's own (${first}${own.length > 4 ? ' …' : ''})`];
    }
    return a;
  } catch (e) {
    source.close();
    throw e;
  }
}

/**
 * The tensors of a file, by its first bytes: .npy (one), .npz (its .npy members, inflated with node:zlib
 * under a cap), else safetensors; `wanted` keeps one by name (core/tensors/find-tensors.ts).
 */
export function findTensors(source: ByteSource, wanted: string | undefined): FoundTensors {
  return findTensorsIn(source, wanted, NPZ);
}

/** The .npz reader of a disk: zip members inflated with node:zlib. */
const NPZ: NpzReader<ZipEntry> = { zipEntries, entrySource, checkInflatedTotal };

/** Where the tokens of the attention file at `path` may be kept beside it: X.tokens.json for X.npy. */
export function sidecarPath(path: string): string {
  return path.replace(/\.(npy|npz|safetensors)$/i, '') + '.tokens.json';
}

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
      case 'too-large': throw new TensorFileError(`${sidecar}: more than ${MAX_TOKENS_FILE_BYTES} bytes; a tokens file is a JSON array of strings`);
      case 'unreadable': throw new TensorFileError(`${sidecar}: cannot open (${read.detail})`);
    }
  }
  let tokens: unknown;
  try {
    tokens = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
  } catch {
    // Not the parser's message: it quotes the file's first characters, whatever file this is.
    throw new TensorFileError(`${sidecar}: not UTF-8 JSON; a tokens file is a JSON array of strings`);
  }
  if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) throw new TensorFileError(`${sidecar}: must be a JSON array of strings`);
  return tokens as string[];
}
