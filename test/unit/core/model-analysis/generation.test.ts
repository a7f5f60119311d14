// Greedy generation (generation.ts) on the Gemma 2 and 3 reference folders: sliding-window layers
// beside global ones and Gemma 2's final softcap, its steps reusing the kept keys without keeping
// attention. Each generated id is the argmax of a whole run over the ids before it, and the run's
// attention is a plain run's over prompt + generated, in float32 and float64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import { argmax, generateIds } from '../../../../src/core/model-analysis/generation.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { generated, loadFolder, referenceScript } from '../../../support/torch-reference.js';

const TEXT = '1 17 5 5 39 0 12 8 3 21 30 2';

test('Gemma 2 and 3: generated ids are whole runs\' argmax, and the run is a plain run over prompt + generated', () => {
  const { root, cases } = generated(referenceScript('gemma'));
  for (const name of cases) {
    for (const precision of ['f32', 'f64'] as const) {
      const m = loadFolder(`${root}/${name}`, precision);
      const c = m.config, prompt = TEXT.split(' ').map(Number);
      const r = analyzeText(m, idsTokenizer(c.vocab), TEXT, { generate: 6 });
      assert.deepEqual(r.ids.slice(prompt.length), generateIds(m, prompt, 6));
      for (let k = 0; k < 6; k++) {
        const before = r.ids.slice(0, prompt.length + k);
        assert.equal(r.ids[prompt.length + k], argmax(forward(c, m.names, m.weights, before, { precision }).logits), `${name} ${precision} step ${k}`);
      }
      assert.deepEqual(r.attention, forward(c, m.names, m.weights, r.ids, { precision }).attention, `${name} ${precision}`);
    }
  }
});
