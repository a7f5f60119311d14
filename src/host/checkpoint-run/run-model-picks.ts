// The items of "Run a Model…"'s list, apart from VS Code so that they can be tested alone: the cache's
// runnable models first, then, under a separator, those it cannot run, each greyed out by a
// "circle-slash" icon and its reason (which names the config key), then the folder choice. The
// families named come from the registry, so a family added there shows here by itself.
import type { CachedModel } from '../../core/checkpoint-files/hf-cache.js';
import { familyList } from '../../core/checkpoint/families/index.js';

export const CHOOSE_FOLDER = 'Choose a folder…';

export interface ModelPick {
  label: string;
  description?: string;
  detail?: string;
  /** A heading between groups, not a choice. */
  separator?: true;
  /** The model's cache id, absent for the folder choice. */
  model?: string;
  /** Why the model cannot run: picking it says this instead of running. */
  unsupported?: string;
}

export function modelPicks(cached: readonly CachedModel[]): ModelPick[] {
  const runnable = cached.filter((m) => m.unsupported === undefined);
  const not = cached.filter((m) => m.unsupported !== undefined);
  return [
    ...runnable.map((m) => ({ label: m.id, description: m.type, detail: m.folder, model: m.id })),
    ...(not.length ? [{ label: `Not runnable (Attention Lens runs ${familyList('and')})`, separator: true as const }] : []),
    ...not.map((m) => ({ label: `$(circle-slash) ${m.id}`, description: `${m.type || 'no model_type'}: not supported`, detail: m.unsupported, model: m.id, unsupported: m.unsupported })),
    { label: CHOOSE_FOLDER, description: 'a folder with config.json, the weights (.safetensors) and the tokenizer' },
  ];
}

/** The list's placeholder, naming the families that can run. */
export function pickPlaceholder(cached: readonly CachedModel[]): string {
  return cached.some((m) => m.unsupported === undefined)
    ? `a model from the Hugging Face cache (${familyList('or')}), or a folder`
    : `no ${familyList('or')} model in the Hugging Face cache: choose a folder`;
}
