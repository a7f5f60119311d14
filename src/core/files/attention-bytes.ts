// Opening attention from bytes at hand, whoever read them: which tensors (core/tensors/find-tensors.ts),
// the tokens (safetensors' __metadata__.tokens, else the tokens file beside it, else the caller's), and
// the notes. Pure: no node:fs, no node:zlib. The desktop (open.ts) passes its .npz reader and a reader
// of the tokens file beside a file on disk; the web build passes the tokens file's bytes it read
// through vscode.workspace.fs, parsed here only when the attention has no tokens of its own (as on a disk).
import { attentionFromTensors } from '../tensors/attention-file.js';
import type { AttentionSource } from '../tensors/attention-source.js';
import { findTensorsIn, type NpzEntry, type NpzReader } from '../tensors/find-tensors.js';
import { TensorFileError, type ByteSource } from '../tensors/source.js';

export interface OpenOptions {
  /** Use only this tensor (a safetensors name, or an .npz member without .npy). */
  tensor?: string;
  /**
   * Tokens a spec gives for the file: they are used even when the file has its own (the spec says what
   * to show), and a note among the warnings says so when the two differ.
   */
  tokens?: string[];
}

/** Why a tensor file must be a regular file, after "not a regular file but a pipe (FIFO)" (the same words on a disk and on the web). */
export const TENSOR_FILE_IS_REGULAR = ' (a tensor file is read at offsets, which a pipe or device does not allow)';

/** A sidecar tokens file is small: a few thousand strings. */
export const MAX_TOKENS_FILE_BYTES = 4 * 1024 * 1024;

/** What the bytes' reader brings besides them. */
export interface AttentionBytesReaders<E extends NpzEntry = NpzEntry> {
  /** The tokens kept beside the file (undefined when there is none; throws a TensorFileError for a bad one). */
  sidecar?: () => string[] | undefined;
  /** How .npz members are read (the desktop's: node:zlib); without it an .npz is refused in one line. */
  npz?: NpzReader<E>;
}

/** The attention in `source`, closed when the attention is (or at once, if it cannot be opened). */
export function attentionFrom<E extends NpzEntry>(source: ByteSource, options: OpenOptions, readers: AttentionBytesReaders<E> = {}): AttentionSource {
  try {
    const { tensors, tokens, inflated } = findTensorsIn(source, options.tensor, readers.npz);
    const own = tokens ?? readers.sidecar?.();
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

/** Where the tokens of the attention file at `path` may be kept beside it: X.tokens.json for X.npy. */
export function sidecarPath(path: string): string {
  return path.replace(/\.(npy|npz|safetensors)$/i, '') + '.tokens.json';
}

/** The tokens in the bytes of the tokens file `sidecar`: a JSON array of strings, else a TensorFileError naming it. */
export function tokensOfSidecar(sidecar: string, bytes: Uint8Array): string[] {
  let tokens: unknown;
  try {
    tokens = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    // Not the parser's message: it quotes the file's first characters, whatever file this is.
    throw new TensorFileError(`${sidecar}: not UTF-8 JSON; a tokens file is a JSON array of strings`);
  }
  if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) throw new TensorFileError(`${sidecar}: must be a JSON array of strings`);
  return tokens as string[];
}

/** The sentence for a tokens file over MAX_TOKENS_FILE_BYTES (the same on a disk and on the web). */
export function sidecarTooLarge(sidecar: string): string {
  return `${sidecar}: more than ${MAX_TOKENS_FILE_BYTES} bytes; a tokens file is a JSON array of strings`;
}
