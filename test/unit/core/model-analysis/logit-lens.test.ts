// The logit lens (logit-lens.ts) on the Gemma 2 and 3 reference folders: the final norm with its
// offset, the tied head and Gemma 2's final softcap applied to every row as to the run's own last
// one, so after the last layer each position's top five are that position's own run's, p included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { topNext } from '../../../../src/core/checkpoint/model.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { generated, loadFolder, referenceScript } from '../../../support/torch-reference.js';

const TEXT = '1 17 5 5 39 0 12 8 3 21 30 2';

test('Gemma 2 and 3: after the last layer the lens at each position is that position\'s own run, softcap and all', () => {
  const { root, cases } = generated(referenceScript('gemma'));
  const ids = TEXT.split(' ').map(Number);
  for (const name of cases) {
    for (const precision of ['f32', 'f64'] as const) {
      const m = loadFolder(`${root}/${name}`, precision);
      const c = m.config;
      const r = analyzeText(m, idsTokenizer(c.vocab), TEXT, { logitLens: true });
      const lens = r.analyses.logitLens!;
      assert.equal(lens.length, c.layers);
      assert.deepEqual(lens[c.layers - 1][ids.length - 1], r.next, `${name} ${precision}`);
      for (const at of [0, 4]) {
        const own = topNext(forward(c, m.names, m.weights, ids.slice(0, at + 1), { precision }).logits, 5, (id) => `t${id}`);
        assert.deepEqual(lens[c.layers - 1][at], own, `${name} ${precision} position ${at}`);
      }
    }
  }
});
