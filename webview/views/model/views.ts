// The four model views by name, for the model webview, the --html page and `attn render`.
import type { ModelViewFn, ModelViewName } from './common.js';
import { renderModelGrid } from './grid.js';
import { renderModelHead } from './head.js';
import { renderModelFinder } from './finder.js';
import { renderModelRollout } from './rollout.js';

export const MODEL_VIEWS: Record<ModelViewName, ModelViewFn> = {
  model: renderModelGrid,
  head: renderModelHead,
  finder: renderModelFinder,
  rollout: renderModelRollout,
};
