// The checks (heads counted from 0, as the messages count them) of the model editor's messages about norms and ablated heads (src/protocol/ablation-check.ts
// and their use in model-editor.ts): a webview may ask to ablate only distinct heads inside the model,
// zero or mean; the norms switch is on or off; a host's run message with an ablation must carry its
// heads, mode, next tokens and logit differences; a norms head's ‖v W_O‖ is one float32 per token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headListProblem, runAblationProblem } from '../../../src/protocol/ablation-check.js';
import { hostMessageProblem, webviewMessageProblem } from '../../../src/protocol/model-editor.js';
import { scanModel } from '../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../support/model-fixture.js';

const header = { layers: 2, heads: 3, tokens: 4 };

test('a webview\'s heads to ablate: distinct heads inside the model, zero or mean', () => {
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: 1, head: 2 }, { layer: 0, head: 0 }], mode: 'mean' }, header), undefined);
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [], mode: 'zero' }, header), undefined, 'none: restore all');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: 2, head: 0 }], mode: 'zero' }, header), 'no head 2, 0 in 2 × 3');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: 0, head: 3 }], mode: 'zero' }, header), 'no head 0, 3 in 2 × 3');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: -1, head: 0 }], mode: 'zero' }, header), 'no head -1, 0 in 2 × 3');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: 0.5, head: 0 }], mode: 'zero' }, header), 'no head 0.5, 0 in 2 × 3');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: '0', head: 0 }], mode: 'zero' }, header), 'no head "0", 0 in 2 × 3');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: 1, head: 1 }, { layer: 1, head: 1 }], mode: 'zero' }, header), 'head 1, 1 named twice');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [{ layer: 0, head: 0 }], mode: 'half' }, header), 'an ablation whose mode is neither zero nor mean');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: 'all', mode: 'zero' }, header), 'heads that are not a list of at most 6');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: Array.from({ length: 7 }, () => ({ layer: 0, head: 0 })), mode: 'zero' }, header), 'heads that are not a list of at most 6');
  assert.equal(webviewMessageProblem({ type: 'ablate', heads: [], mode: 'zero' }, undefined), 'heads to ablate named before the model was read');
  assert.equal(webviewMessageProblem({ type: 'norms', on: true }, header), undefined);
  assert.equal(webviewMessageProblem({ type: 'norms', on: 'yes' }, header), 'a norms switch that is neither on nor off');
});

test('headListProblem quotes a malformed head, never prints its object whole', () => {
  assert.equal(headListProblem([7], 2, 2), 'no head 7 in 2 × 2');
  assert.equal(headListProblem([{ layer: 'x'.repeat(500), head: 0 }], 2, 2)!.length < 200, true);
});

const tokens = (list: unknown[]) => list.some((t) => typeof (t as { p?: unknown }).p !== 'number');
const ablation = { heads: [{ layer: 0, head: 1 }], mode: 'zero', next: [{ id: 3, token: ' sat', p: 0.4 }], logitDiff: 1.5, baseLogitDiff: 2.5, target: 3, contrast: null };

test('a run message\'s ablation carries its heads, mode, next tokens and logit differences', () => {
  assert.equal(runAblationProblem(ablation, tokens, 10), undefined);
  assert.equal(runAblationProblem({ ...ablation, contrast: 4 }, tokens, 10), undefined);
  assert.match(runAblationProblem({ ...ablation, heads: [{ layer: 0, head: 1 }, { layer: 0, head: 1 }] }, tokens, 10)!, /named twice/);
  assert.match(runAblationProblem({ ...ablation, mode: 'both' }, tokens, 10)!, /mode/);
  assert.match(runAblationProblem({ ...ablation, logitDiff: NaN }, tokens, 10)!, /logit differences/);
  assert.match(runAblationProblem({ ...ablation, target: 'sat' }, tokens, 10)!, /target/);
  assert.match(runAblationProblem({ ...ablation, next: [{ id: 1, token: 'x' }] }, tokens, 10)!, /next tokens/);
  const run = { type: 'run', model: 'gpt2', next: [], forwardMs: 3 };
  assert.equal(hostMessageProblem({ ...run, ablation }, undefined), undefined);
  assert.match(hostMessageProblem({ ...run, ablation: { ...ablation, next: [{ id: 1, token: 'x', p: 2 }] } }, undefined)!, /next tokens/);
});

test('a norms head\'s ‖v W_O‖ is one float32 per token; a header says norms with true or false only', () => {
  const { header: h, thumbnails } = scanModel(memoryAttention(randomAttention(2, 3, 4), 2, 3, 4));
  const weights = new Float32Array(16);
  assert.equal(hostMessageProblem({ type: 'head', layer: 1, head: 2, weights, valueNorms: new Float32Array(4) }, h), undefined);
  assert.equal(hostMessageProblem({ type: 'head', layer: 1, head: 2, weights, valueNorms: new Float32Array(5) }, h), 'value norms that are not n float32');
  assert.equal(hostMessageProblem({ type: 'head', layer: 1, head: 2, weights, valueNorms: [1, 2, 3, 4] }, h), 'value norms that are not n float32');
  assert.equal(hostMessageProblem({ type: 'model', header: { ...h, norms: true }, thumbnails }, undefined), undefined);
  assert.equal(hostMessageProblem({ type: 'model', header: { ...h, norms: 'yes' }, thumbnails }, undefined), 'norms is not true or false');
});
