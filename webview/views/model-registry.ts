// The model editor's views in one table (the half of views/registry.ts a real model's attention file
// draws): apart, so the model webview's bundle (the editor, the --html page, the notebook) carries no
// spec view: the spec views and their imports were 170 kB of its 500, parsed and run before its
// first paint. registry.ts joins this table to the spec views' for the panel and `attn render`.
import type { ModelViewName } from '../../src/core/vocabulary.js';
import { renderModelGrid } from './model/grid.js';
import { renderModelHead } from './model/head.js';
import { renderModelHeadTokens } from './model/head-tokens.js';
import { renderModelFinder } from './model/finder.js';
import { renderModelRollout } from './model/rollout.js';
import { renderModelNext } from './model/next.js';
import { renderModelLogitLens } from './model/logit-lens.js';
import { renderModelAttribution } from './model/attribution.js';
import { renderModelPatching } from './model/patching.js';
import type { ModelViewFn } from './model/common.js';

/** A view of the model editor (and of `attn render` on a .safetensors, .npy or .npz file). */
export interface ModelViewEntry {
  readonly name: ModelViewName;
  readonly title: string;
  readonly needs: 'model';
  readonly render: ModelViewFn;
}

/** The model editor's views, in the order of its menu. */
export const MODEL_ENTRIES: readonly ModelViewEntry[] = [
  { name: 'model', title: 'Model', needs: 'model', render: renderModelGrid },
  { name: 'head', title: 'Head', needs: 'model', render: renderModelHead },
  { name: 'head-tokens', title: 'Head tokens', needs: 'model', render: renderModelHeadTokens },
  { name: 'finder', title: 'Head finder', needs: 'model', render: renderModelFinder },
  { name: 'rollout', title: 'Rollout', needs: 'model', render: renderModelRollout },
  // A model run's (a model spec's): the five most likely next tokens.
  { name: 'next', title: 'Next token', needs: 'model', render: renderModelNext },
  // A model run's analyses: what each layer predicts, which parts make the target's logit, what
  // each head brings back of a corrupted text.
  { name: 'logit-lens', title: 'Logit lens', needs: 'model', render: renderModelLogitLens },
  { name: 'attribution', title: 'Logit attribution', needs: 'model', render: renderModelAttribution },
  { name: 'patching', title: 'Activation patching', needs: 'model', render: renderModelPatching },
];

const BY_NAME = new Map<string, ModelViewEntry>(MODEL_ENTRIES.map((e) => [e.name, e]));

/** The entry of a view drawn from a model's attention file; undefined for a spec view or an unknown name. */
export function modelEntry(name: string): ModelViewEntry | undefined {
  return BY_NAME.get(name);
}

/** The draw function of every model view by name. */
export const MODEL_VIEWS = Object.fromEntries(MODEL_ENTRIES.map((e) => [e.name, e.render])) as Record<ModelViewName, ModelViewFn>;
