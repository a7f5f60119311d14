// The four model views by name, for the model webview, the --html page and `attn render`.
import type { ModelViewFn, ModelViewName } from './model-common.js';
import { renderModelGrid } from './model-grid.js';
import { renderModelHead } from './model-head.js';
import { renderModelFinder } from './model-finder.js';
import { renderModelRollout } from './model-rollout.js';

export const MODEL_VIEWS: Record<ModelViewName, ModelViewFn> = {
  model: renderModelGrid,
  head: renderModelHead,
  finder: renderModelFinder,
  rollout: renderModelRollout,
};
