// The model editor's table of views (webview/views/model-registry.ts): the same entries the joined
// registry lists, no spec view among them, and the model webview's bundle (built from it) carrying
// no spec view, the weight that was parsed and run before the page's first paint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MODEL_ENTRIES, MODEL_VIEWS, modelEntry } from '../../../../webview/views/model-registry.js';
import { REGISTRY, SPEC_ENTRIES } from '../../../../webview/views/registry.js';
import { MODEL_VIEW_NAMES } from '../../../../src/core/vocabulary.js';

test('the model table is the registry\'s model part, in the vocabulary\'s order, and knows no spec view', () => {
  assert.deepEqual(MODEL_ENTRIES.map((e) => e.name), [...MODEL_VIEW_NAMES]);
  assert.deepEqual(REGISTRY.filter((e) => e.needs === 'model'), [...MODEL_ENTRIES]);
  for (const e of MODEL_ENTRIES) {
    assert.equal(modelEntry(e.name), e);
    assert.equal(MODEL_VIEWS[e.name], e.render);
  }
  for (const e of SPEC_ENTRIES) assert.equal(modelEntry(e.name), undefined, e.name);
  assert.equal(modelEntry('nope'), undefined);
});

// dist/ is built before the unit suite runs (npm run test:unit).
test('the model webview\'s bundle holds the model views and none of the spec views', () => {
  const bundle = readFileSync('dist/model-webview.js', 'utf8');
  assert.match(bundle, /function renderModelGrid\(/);
  for (const name of ['renderArcs', 'renderMatrix', 'renderSteps', 'renderSpectrum', 'renderInitLab']) {
    assert.doesNotMatch(bundle, new RegExp(`function ${name}\\(`), `${name} is a spec view`);
  }
});
