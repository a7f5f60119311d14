// The items of "Run a Model…" (src/host/checkpoint-run/run-model-picks.ts): runnable models as plain
// choices, the others after a separator, greyed by an icon, with their reason and no way to run, and
// the families named from the registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CachedModel } from '../../../../src/core/checkpoint-files/hf-cache.js';
import { FAMILY_NAMES } from '../../../../src/core/checkpoint/families/index.js';
import { CHOOSE_FOLDER, modelPicks, pickPlaceholder } from '../../../../src/host/checkpoint-run/run-model-picks.js';

const runnable: CachedModel = { id: 'gpt2', folder: '/c/gpt2', commit: 'a', type: 'gpt2' };
const other: CachedModel = { id: 'org/odd', folder: '/c/odd', commit: 'b', type: 'odd', unsupported: 'config.json "model_type" is "odd": Attention Lens runs …' };

test('an unsupported model is listed after a separator, greyed, with its reason, and is not a model to run', () => {
  const picks = modelPicks([runnable, other]);
  assert.deepEqual(picks.map((p) => (p.separator ? 'separator' : p.label)), ['gpt2', 'separator', '$(circle-slash) org/odd', CHOOSE_FOLDER]);
  assert.equal(picks[0].model, 'gpt2');
  assert.equal(picks[0].unsupported, undefined);
  assert.equal(picks[1].separator, true);
  assert.equal(picks[2].unsupported, other.unsupported);
  assert.equal(picks[2].detail, other.unsupported);
  assert.match(picks[2].description ?? '', /^odd: not supported$/);
  for (const name of FAMILY_NAMES) assert.ok(picks[1].label.includes(name), `${name} in ${picks[1].label}`);
});

test('with nothing unsupported there is no separator; the placeholder names every family', () => {
  assert.deepEqual(modelPicks([runnable]).map((p) => p.label), ['gpt2', CHOOSE_FOLDER]);
  for (const cached of [[runnable], [other], []]) {
    const text = pickPlaceholder(cached);
    for (const name of FAMILY_NAMES) assert.ok(text.includes(name), `${name} in ${text}`);
  }
  assert.match(pickPlaceholder([other]), /^no .* model in the Hugging Face cache: choose a folder$/);
});
