// The tokenizer cache on disk (core/tokenizer/cache's TokenizerStore): one file per tokenizer.json,
// named from its path, size, mtime and hash, in a folder of ours — $ATTN_CACHE_DIR (off: none), else
// $XDG_CACHE_HOME/attention-lens, else ~/.cache/attention-lens (the extension names its global storage).
// An entry is written whole or not at all (a temp file of this process, then a rename, so two runs
// writing the same entry each put a whole file in place) and read back with a byte budget, its header
// (magic, version, the source it was made from) and the SHA-256 of its payload checked. A folder that
// cannot be made or written, or an entry that fails a check, is passed over without a word. The SHA-256
// proves an entry whole, not who wrote it: anyone who can write an entry can make it say other tokens.
// So the folder and its entries are made for their owner alone (0700, 0600, whatever the umask), and an
// entry another user owns, or that others may write (made by an older attn under a loose umask, or put
// there), is not read: it is built again and replaced.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TokenizerSource, TokenizerStore } from '../tokenizer/cache/source.js';
import type { TokenizerFiles } from '../tokenizer/tokenizer.js';
import { sameSource } from '../tokenizer/cache/source.js';
import { readBounded } from './read-bounded.js';

const MAGIC = Buffer.from('ATTNTOKC', 'latin1');
/** The entry's own layout (the payload has its own version, core/tokenizer/cache/digest-bytes.ts). */
const STORE_VERSION = 1;
/** magic, version, identity bytes, payload bytes, payload SHA-256. */
const HEADER = 8 + 4 + 4 + 4 + 32;
/** Entries kept in the folder: the oldest beyond these are removed when one is written. */
export const KEPT_ENTRIES = 16;
const SUFFIX = '.tokenizer';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** The cache folder from the environment, or undefined when ATTN_CACHE_DIR=off. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.ATTN_CACHE_DIR;
  if (set === 'off') return undefined;
  if (set !== undefined && set !== '') return resolve(set);
  const xdg = env.XDG_CACHE_HOME;
  return xdg !== undefined && xdg !== '' ? join(resolve(xdg), 'attention-lens') : join(homedir(), '.cache', 'attention-lens');
}

/**
 * The identity of tokenizer.json at `path` whose bytes, already read, are `bytes` (hashed here) or hash
 * to `bytes` (hex). The stat comes after the read: a file changed in between has another hash than the
 * bytes read, so its next read does not find this entry.
 */
export function tokenizerSource(path: string, bytes: Uint8Array | string): TokenizerSource | undefined {
  try {
    const stat = statSync(path);
    return { path: resolve(path), size: stat.size, mtimeMs: stat.mtimeMs, sha256: typeof bytes === 'string' ? bytes : sha256(bytes).toString('hex') };
  } catch {
    return undefined;
  }
}

/** A store in `folder`/tokenizers (made when first written). */
export function folderStore(folder: string): TokenizerStore {
  const dir = join(folder, 'tokenizers');
  const fileOf = (source: TokenizerSource) => join(dir, sha256(Buffer.from(JSON.stringify(identity(source)))).toString('hex').slice(0, 40) + SUFFIX);
  return {
    read(source) {
      const file = fileOf(source);
      if (!ownedAlone(file)) return undefined;
      const read = readBounded(file, budget(source));
      return 'bytes' in read ? payloadOf(read.bytes, source) : undefined;
    },
    write(source, payload) {
      if (HEADER + 4096 + payload.length > budget(source)) return;
      const idBytes = Buffer.from(JSON.stringify(identity(source)), 'utf8');
      const header = Buffer.alloc(HEADER);
      MAGIC.copy(header, 0);
      header.writeUInt32LE(STORE_VERSION, 8);
      header.writeUInt32LE(idBytes.length, 12);
      header.writeUInt32LE(payload.length, 16);
      sha256(payload).copy(header, 20);
      const file = fileOf(source);
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // 'wx': a name that is there already (a link put in its place) is not written through.
        writeFileSync(temp, Buffer.concat([header, idBytes, payload]), { mode: 0o600, flag: 'wx' });
        renameSync(temp, file);
      } catch {
        try { unlinkSync(temp); } catch { /* never made */ }
        return;
      }
      prune(dir);
    },
  };
}

/**
 * The most an entry may hold: real payloads are half their tokenizer.json (Llama 3: 4.4 of 9.1 MB); a
 * file of one-letter pieces with small ids might come near 3 times. An entry over it is not written.
 */
const budget = (source: TokenizerSource) => 4 * source.size + (1 << 20);

const identity = (s: TokenizerSource) => ({ path: s.path, size: s.size, mtimeMs: s.mtimeMs, sha256: s.sha256 });

/**
 * Whether the entry at `file` (links followed: what is read) belongs to this user and no one else may
 * write it. Windows has no such mode bits (Node reports 0o666 for every file): there the folder's
 * place in the user's profile is what keeps others out.
 */
export function ownedAlone(file: string, stat: (path: string) => Stats = statSync): boolean {
  if (process.platform === 'win32') return true;
  try {
    const s = stat(file);
    return (s.mode & 0o022) === 0 && (typeof process.getuid !== 'function' || s.uid === process.getuid());
  } catch {
    return false;
  }
}

/** The payload of an entry, when every check passes. */
function payloadOf(bytes: Buffer, source: TokenizerSource): Uint8Array | undefined {
  if (bytes.length < HEADER || !bytes.subarray(0, 8).equals(MAGIC) || bytes.readUInt32LE(8) !== STORE_VERSION) return undefined;
  const idLength = bytes.readUInt32LE(12), payloadLength = bytes.readUInt32LE(16);
  if (HEADER + idLength + payloadLength !== bytes.length) return undefined;
  let written: unknown;
  try {
    written = JSON.parse(bytes.subarray(HEADER, HEADER + idLength).toString('utf8'));
  } catch {
    return undefined;
  }
  const w = written as TokenizerSource;
  if (typeof written !== 'object' || written === null || !sameSource(w, source)) return undefined;
  const payload = bytes.subarray(HEADER + idLength);
  return sha256(payload).equals(bytes.subarray(20, HEADER)) ? new Uint8Array(payload.buffer, payload.byteOffset, payload.length) : undefined;
}

/** Keeps the KEPT_ENTRIES newest entries; removes older ones and temp files an hour old (a run that died). */
function prune(dir: string): void {
  try {
    const now = Date.now();
    const entries: { path: string; mtimeMs: number }[] = [];
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (name.endsWith('.tmp') && now - stat.mtimeMs > 3_600_000) unlinkSync(path);
      else if (name.endsWith(SUFFIX)) entries.push({ path, mtimeMs: stat.mtimeMs });
    }
    entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const old of entries.slice(KEPT_ENTRIES)) unlinkSync(old.path);
  } catch {
    // Another run pruned first, or the folder went away: nothing to do.
  }
}

/**
 * What tokenizerFrom needs to cache a model folder's tokenizer.json (the text `files` holds, as read):
 * its identity — the hash of the bytes read when the reader made it (model-folder.ts does), else of the
 * text's UTF-8 — and the store when there is one.
 */
export function tokenizerCache(folder: string, files: TokenizerFiles, store?: TokenizerStore): { source: TokenizerSource; store?: TokenizerStore } | undefined {
  if (files.tokenizerJson === undefined) return undefined;
  const source = tokenizerSource(join(folder, 'tokenizer.json'), files.tokenizerJsonSha256 ?? Buffer.from(files.tokenizerJson, 'utf8'));
  return source && { source, ...(store ? { store } : {}) };
}
