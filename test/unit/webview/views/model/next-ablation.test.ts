// The next-token view of a run with heads ablated: the ablated run's tokens first, under a line naming
// the heads (counted from 1) and the mode, the run's own under them, and the note says how the top
// token's logit (or a target − contrast difference) changed, base → ablated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { logitChange } from '../../../../../webview/views/model/next.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';
import { textWidth } from '../../../../../webview/kit/format.js';

const tokens = ['The', ' cat', ' sat', ' on', ' the', ' mat', '.', ' The', ' cat'];
const next = [{ id: 3, token: ' sat', p: 0.9632 }, { id: 2, token: ' cat', p: 0.0196 }];
const ablation = {
  heads: [{ layer: 1, head: 0 }, { layer: 0, head: 1 }], mode: 'zero' as const, next: [{ id: 2, token: ' cat', p: 0.5 }, { id: 3, token: ' sat', p: 0.3 }],
  logitDiff: 3.1, baseLogitDiff: 5.21, target: 3, contrast: null,
};
const data = {
  ...scanModel(memoryAttention(randomAttention(2, 2, tokens.length), 2, 2, tokens.length, tokens)),
  run: { model: 'models/induction-gpt2', forwardMs: 79, next, ablation },
};

test('logitChange: the target by its text, base → ablated and the change', () => {
  assert.equal(logitChange(ablation, next), 'logit of " sat" 5.21 → 3.1 (base → ablated, −2.11)');
  assert.equal(logitChange({ ...ablation, contrast: 2, logitDiff: 6 }, next), 'logit difference " sat" − " cat" 5.21 → 6 (base → ablated, +0.79)');
  assert.equal(logitChange({ ...ablation, target: 99 }, next), 'logit of token 99 5.21 → 3.1 (base → ablated, −2.11)');
  // A contrast outside both lists: named as the spec wrote it, not by its id.
  assert.equal(logitChange({ ...ablation, contrast: 275 }, next, { target: ' sat', contrast: ' mat' }), 'logit difference " sat" − " mat" 5.21 → 3.1 (base → ablated, −2.11)');
  assert.equal(logitChange({ ...ablation, target: 99 }, next, { target: '99' }), 'logit of token 99 5.21 → 3.1 (base → ablated, −2.11)');
  // Without a target in the spec the ablation scores the run's own top token: the written contrast is not its.
  assert.equal(logitChange({ ...ablation, contrast: 275 }, next, { contrast: ' mat' }), 'logit difference " sat" − token 275 5.21 → 3.1 (base → ablated, −2.11)');
});

test('the ablated run\'s tokens, then the run\'s own, and the change in the note', () => {
  const { svg } = drawModel('next', data, { width: 900 });
  assert.deepEqual([...svg.querySelectorAll('text.mask-label')].map((t) => t.textContent), ['with 2.1, 1.2 ablated (zero)', 'the run itself']);
  assert.deepEqual([...svg.querySelectorAll('text.token')].map((t) => t.textContent), ['" cat"', '" sat"', '" sat"', '" cat"']);
  assert.match(svg.querySelector('text.note')!.textContent!, /logit of " sat" 5\.21 → 3\.1 \(base → ablated, −2\.11\)/);
  assert.match(svg.querySelector('text')!.textContent!, /what comes next, with heads ablated/);
  const plain = drawModel('next', { ...data, run: { ...data.run, ablation: undefined } }, { width: 900 }).svg;
  assert.deepEqual([...plain.querySelectorAll('text.token')].map((t) => t.textContent), ['" sat"', '" cat"']);
  assert.equal(plain.querySelectorAll('text.mask-label').length, 0);
});

test('in a 430 px panel the heading keeps "with heads ablated"; the model\'s name gives way', () => {
  const { svg } = drawModel('next', data, { width: 360 });
  const title = svg.querySelector('text.title')!;
  assert.match(title.firstChild!.textContent!, /^(.*…: )?what comes next, with heads ablated$/);
  assert.ok(textWidth(title.firstChild!.textContent!, 15) <= Number(svg.getAttribute('width')) - 8, 'within the picture, measured as bold');
  assert.equal(title.querySelector('title')!.textContent, 'models/induction-gpt2: what comes next, with heads ablated');
});
