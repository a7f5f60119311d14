// The models Attention Lens can run that are already in the Hugging Face cache, for "Run a
// Model…": every models--*/snapshots/<commit>/ (the one refs/main names, else the newest) whose
// config.json names a model_type the runner has a family for (checkpoint/families/registry.ts).
// The snapshot's files are links into blobs/, and are followed only within the cache
// (model-location.ts's cachedSnapshot): a link leading out makes the model unlisted, never read.
import { join } from 'node:path';
import { isFamilyName, type FamilyName } from '../checkpoint/families/index.js';
import { cachedSnapshot, within, type FolderFs } from './model-location.js';

export interface CachedModel {
  /** The model id ("gpt2", "org/name"), as a model spec names it. */
  id: string;
  /** The snapshot's real path. */
  folder: string;
  commit: string;
  type: FamilyName;
}

/** A config.json is small; one over this is not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** Models listed at most (a cache of thousands is cut, not walked whole). */
export const MAX_LISTED = 500;

/** The supported models in the cache at `cacheRoot`, sorted by id. */
export function listCachedModels(cacheRoot: string, fs: FolderFs): CachedModel[] {
  const cacheReal = fs.realpath(cacheRoot);
  if (cacheReal === undefined) return [];
  const models: CachedModel[] = [];
  for (const entry of fs.list(cacheRoot).sort()) {
    if (models.length >= MAX_LISTED) break;
    const m = /^models--(.+)$/.exec(entry);
    if (!m) continue;
    const id = m[1].split('--').join('/');
    const snapshot = cachedSnapshot(id, cacheRoot, fs);
    if ('problem' in snapshot) continue;
    const config = fs.realpath(join(snapshot.folder, 'config.json'));
    if (config === undefined || !within(cacheReal, config)) continue;
    const type = modelType(fs.readText(config, MAX_CONFIG_BYTES));
    if (type) models.push({ id, folder: snapshot.folder, commit: snapshot.commit, type });
  }
  return models;
}

/** The config's model_type when it is one the runner computes. */
export function modelType(configText: string | undefined): FamilyName | undefined {
  if (configText === undefined) return undefined;
  try {
    const config: unknown = JSON.parse(configText);
    const type = typeof config === 'object' && config !== null ? (config as { model_type?: unknown }).model_type : undefined;
    return typeof type === 'string' && isFamilyName(type) ? type : undefined;
  } catch {
    return undefined;
  }
}
