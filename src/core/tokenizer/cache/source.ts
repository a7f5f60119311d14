// What identifies a tokenizer.json for the caches, and the store a cache on disk is reached through.
// Both come from the entry points (the CLI, the host's worker): this folder stays free of Node so a
// web build can take it, and a run with no store (or none that works) loads as before.

/** A tokenizer.json as it was read: where, its size and mtime at the read, and the SHA-256 of the bytes read. */
export interface TokenizerSource {
  /** Resolved (absolute), so two spellings of one file share an entry. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Lower-case hex. */
  sha256: string;
}

/** Bytes kept between processes for a tokenizer.json; a store that cannot read or write says nothing. */
export interface TokenizerStore {
  /** What was written for this very source (same path, size, mtime and hash), or undefined. */
  read(source: TokenizerSource): Uint8Array | undefined;
  write(source: TokenizerSource, bytes: Uint8Array): void;
}

export const sameSource = (a: TokenizerSource, b: TokenizerSource) => a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.sha256 === b.sha256;
