// The models already in the Hugging Face cache, for "Run a Model…": every models--*/snapshots/<commit>/
// (the one refs/main names, else the newest) with a config.json. Each is listed, with its model_type;
// one whose model_type the runner has no family for (checkpoint/families/registry.ts, read here, so a
// family added there is listed by itself) carries the reason, naming the config key, so that the list
// shows it as not runnable rather than hiding it.
// The snapshot's files are links into blobs/, and are followed only within the cache
// (model-location.ts's cachedSnapshot): a link leading out makes the model unlisted, never read.
import { join } from 'node:path';
import { familyList, isFamilyName } from '../checkpoint/families/index.js';
import { cachedSnapshot, within, type FolderFs } from './model-location.js';

export interface CachedModel {
  /** The model id ("gpt2", "org/name"), as a model spec names it. */
  id: string;
  /** The snapshot's real path. */
  folder: string;
  commit: string;
  /** The config's model_type ("" when it has none). */
  type: string;
  /** Why the runner cannot run it, naming the config key; absent when it can. */
  unsupported?: string;
}

/** A config.json is small; one over this is not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** Models listed at most (a cache of thousands is cut, not walked whole). */
export const MAX_LISTED = 500;

/** The models in the cache at `cacheRoot` that have a config.json, sorted by id, supported or not. */
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
    const { type, unsupported } = modelType(fs.readText(config, MAX_CONFIG_BYTES));
    models.push({ id, folder: snapshot.folder, commit: snapshot.commit, type, ...(unsupported === undefined ? {} : { unsupported }) });
  }
  return models;
}

/** The config's model_type, and why the runner cannot compute it when it cannot. */
export function modelType(configText: string | undefined): { type: string; unsupported?: string } {
  if (configText === undefined) return { type: '', unsupported: 'its config.json cannot be read (missing, or over 1 MB)' };
  let config: unknown;
  try {
    config = JSON.parse(configText);
  } catch {
    return { type: '', unsupported: 'its config.json is not JSON' };
  }
  const type = typeof config === 'object' && config !== null ? (config as { model_type?: unknown }).model_type : undefined;
  if (typeof type !== 'string' || type === '') return { type: '', unsupported: `its config.json has no "model_type" (Attention Lens runs ${familyList('and')})` };
  if (!isFamilyName(type)) return { type, unsupported: `config.json "model_type" is ${JSON.stringify(type.slice(0, 60))}: Attention Lens runs ${familyList('and')}` };
  return { type };
}
