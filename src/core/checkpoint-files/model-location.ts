// Where a model spec's "model" may point, decided before a byte of the model is read: a folder
// beside the spec or below it (the tensor files' rule: no absolute path, no ".."), a model id in
// the Hugging Face cache ("gpt2" → <cache>/models--gpt2/snapshots/<commit>/), or, in a trusted
// workspace only, an absolute path. A spec from an untrusted workspace never makes the extension
// read outside the workspace and the cache: its folder's real path, and the real path of every
// file in it (the cache's snapshots are links into blobs/), must lie in the spec's folder, a
// workspace folder or the cache. The disk is reached through FolderFs only, so this is tested with
// a fake one or a temp dir, without VS Code.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { readBounded } from '../files/read-bounded.js';

/** What the resolution asks of the disk. */
export interface FolderFs {
  /** The real path (every link followed), or undefined when nothing is there. */
  realpath(path: string): string | undefined;
  /** Whether the path (followed) is a folder. */
  isDirectory(path: string): boolean;
  /** Entry names of a folder ([] when it cannot be listed). */
  list(path: string): string[];
  /** A small text file's contents (at most `maxBytes`), or undefined. */
  readText(path: string, maxBytes: number): string | undefined;
  /** When the path (followed) was last changed, in ms; 0 when unknown. */
  mtimeMs(path: string): number;
}

export interface ModelWhere {
  /** The spec's folder on disk; undefined for a spec that is not a file (untitled). */
  specFolder: string | undefined;
  /** The workspace's folders (an untrusted workspace reads nothing outside them and the cache). */
  workspaceFolders: readonly string[];
  /** The Hugging Face hub cache: $HF_HOME/hub, else ~/.cache/huggingface/hub. */
  cacheRoot: string;
  /** vscode.workspace.isTrusted (the CLI: true). */
  trusted: boolean;
  fs: FolderFs;
}

export type ModelLocation =
  | { folder: string; how: 'beside' | 'cache' | 'absolute'; commit?: string }
  | { problem: string };

/** The hub cache's folder: $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub. */
export function hfCacheRoot(env: Record<string, string | undefined> = process.env, home = homedir()): string {
  if (env.HF_HUB_CACHE) return env.HF_HUB_CACHE;
  if (env.HF_HOME) return join(env.HF_HOME, 'hub');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'huggingface', 'hub');
}

/** "gpt2" or "org/name": the characters the Hub allows in a model id, one slash at most. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$/;

const isAbsolutePath = (p: string) => isAbsolute(p) || /^[a-zA-Z]:/.test(p) || p.startsWith('\\');

/** True when `path` is `root` or lies below it (both real paths). */
export function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..'));
}

/** Where `model` (as the spec writes it) is, or a sentence saying why it cannot be read. */
export function resolveModelFolder(model: string, where: ModelWhere): ModelLocation {
  const { fs, trusted } = where;
  if (model.includes('\0')) return { problem: 'the model name holds a NUL character' };
  if (isAbsolutePath(model)) {
    if (!trusted) return { problem: 'an absolute path is read in a trusted workspace only (this one is in Restricted Mode): put the model in a folder beside the spec, or name a model id from the Hugging Face cache' };
    const real = fs.realpath(model);
    if (real === undefined || !fs.isDirectory(real)) return { problem: `${model}: no such folder` };
    return { folder: real, how: 'absolute' };
  }
  if (model.split(/[\\/]/).includes('..')) {
    return { problem: 'the model folder must be beside the spec or below it ("..", going up, is not allowed); in a trusted workspace, give an absolute path' };
  }
  const cacheReal = fs.realpath(where.cacheRoot);
  const roots = [...where.workspaceFolders.map((f) => fs.realpath(f)), cacheReal].filter((r): r is string => r !== undefined);
  if (where.specFolder !== undefined) {
    const specReal = fs.realpath(where.specFolder);
    const real = specReal === undefined ? undefined : fs.realpath(join(specReal, model));
    if (specReal !== undefined && real !== undefined && fs.isDirectory(real)) {
      if (!trusted) {
        const allowed = [specReal, ...roots];
        if (!allowed.some((root) => within(root, real))) return { problem: `${model}: leads outside the workspace (through a link), which a workspace in Restricted Mode may not read` };
        const out = linkLeadingOut(fs, real, allowed);
        if (out) return { problem: `${model}: ${out} leads outside the workspace and the Hugging Face cache (through a link), which a workspace in Restricted Mode may not read` };
      }
      return { folder: real, how: 'beside' };
    }
  }
  const beside = where.specFolder !== undefined ? `no folder ${JSON.stringify(model)} beside the spec, and ` : '';
  if (!MODEL_ID.test(model)) return { problem: `${beside}${JSON.stringify(model)} is not a model id ("gpt2", "org/name")` };
  const found = cachedSnapshot(model, where.cacheRoot, fs);
  if ('problem' in found) return { problem: `${beside}${found.problem}` };
  return { folder: found.folder, how: 'cache', commit: found.commit };
}

/** The cache's folder of a model id: models--org--name. */
export function cacheFolderName(id: string): string {
  return `models--${id.split('/').join('--')}`;
}

/**
 * The snapshot of `id` in the cache: the one refs/main names, else the newest; its real path and
 * every file's in it must lie in the cache (a link into blobs/ is followed, one leading out is not).
 */
export function cachedSnapshot(id: string, cacheRoot: string, fs: FolderFs): { folder: string; commit: string } | { problem: string } {
  const cacheReal = fs.realpath(cacheRoot);
  const repo = join(cacheRoot, cacheFolderName(id));
  if (cacheReal === undefined || !fs.isDirectory(repo)) return { problem: `no model ${JSON.stringify(id)} in the Hugging Face cache (${cacheRoot})` };
  const snapshots = join(repo, 'snapshots');
  const commits = fs.list(snapshots).filter((c) => /^[A-Za-z0-9._-]+$/.test(c) && fs.isDirectory(join(snapshots, c)));
  const mainReal = fs.realpath(join(repo, 'refs', 'main'));
  const main = mainReal !== undefined && within(cacheReal, mainReal) ? fs.readText(mainReal, 256)?.trim() : undefined;
  const commit = main !== undefined && commits.includes(main)
    ? main
    : commits.map((c) => ({ c, t: fs.mtimeMs(join(snapshots, c)) })).sort((a, b) => b.t - a.t || (a.c < b.c ? -1 : 1))[0]?.c;
  if (commit === undefined) return { problem: `the Hugging Face cache holds ${cacheFolderName(id)} but no snapshot of it (download it again)` };
  const real = fs.realpath(join(snapshots, commit));
  if (real === undefined || !within(cacheReal, real)) return { problem: `${cacheFolderName(id)}/snapshots/${commit} leads outside the Hugging Face cache (through a link)` };
  const out = linkLeadingOut(fs, real, [cacheReal]);
  if (out) return { problem: `${cacheFolderName(id)}/snapshots/${commit}/${out} leads outside the Hugging Face cache (through a link), so it is not read` };
  return { folder: real, commit };
}

/** The first entry of `folder` (one level, as a model folder is) whose real path lies in none of `roots`. */
function linkLeadingOut(fs: FolderFs, folder: string, roots: readonly string[]): string | undefined {
  for (const name of fs.list(folder)) {
    const real = fs.realpath(join(folder, name));
    if (real !== undefined && !roots.some((root) => within(root, real))) return name;
  }
  return undefined;
}

/** The disk as Node sees it. */
export const nodeFolderFs: FolderFs = {
  realpath(path) {
    try { return realpathSync(path); } catch { return undefined; }
  },
  isDirectory(path) {
    try { return statSync(path).isDirectory(); } catch { return false; }
  },
  list(path) {
    try { return readdirSync(path); } catch { return []; }
  },
  readText(path, maxBytes) {
    // A pipe or device is never opened (reading a FIFO waits for a writer for ever).
    const read = readBounded(path, maxBytes);
    return 'bytes' in read ? read.bytes.toString('utf8') : undefined;
  },
  mtimeMs(path) {
    try { return statSync(path).mtimeMs; } catch { return 0; }
  },
};
