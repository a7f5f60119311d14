// What analysisRefusal (analyze-text.ts) checks of a request an API caller makes (the editor and model
// specs pass heads as numbers, not as the command line's checked "L.H"): a head outside the model
// would zero another row's head 0, a mode not zero or mean would run as zero.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import type { AnalysisRequest } from '../../../../src/core/model-analysis/types.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const { configText, tensors } = tinyCheckpoint(QWEN3_CONFIG, 3);
const m = loadModel(configText, tensors, { precision: 'f32' });
const tokenizer = idsTokenizer(40);

test('heads and modes an API caller passes are checked: a head past the layer\'s, a layer past the model\'s, a fraction, another mode', () => {
  const c = m.config;
  const refused = (ablate: AnalysisRequest['ablate'], pattern: RegExp) => assert.throws(() => analyzeText(m, tokenizer, '1 2 3', { ablate }), (e: Error) => pattern.test(e.message) && !e.message.includes('\n'));
  const past = `the model has layers 1 to ${c.layers} of heads 1 to ${c.heads}`;
  refused({ heads: [{ layer: 0, head: c.heads }], labels: [], mode: 'zero' }, new RegExp(`^cannot ablate head 1\\.${c.heads + 1}: ${past}$`));
  refused({ heads: [{ layer: c.layers, head: 0 }], labels: [], mode: 'zero' }, new RegExp(`^cannot ablate head ${c.layers + 1}\\.1: `));
  refused({ heads: [{ layer: -1, head: 0 }], labels: [], mode: 'mean' }, /^cannot ablate head 0\.1: /);
  refused({ heads: [{ layer: 0.5, head: 0 }], labels: [], mode: 'mean' }, /^cannot ablate head 1\.5\.1: /);
  refused({ heads: [{ layer: 0, head: 0 }], labels: [], mode: 'half' as 'zero' }, /^an ablation is zero or mean, not "half"$/);
});
