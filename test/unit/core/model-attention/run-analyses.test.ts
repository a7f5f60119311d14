// The checks of a run's analyses as the model editor's messages carry them
// (src/core/model-attention/run-analyses.ts, used by src/protocol/model-editor.ts on both sides):
// tables of finite numbers, one per layer where the attribution says so, counts within the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributionProblem, logitLensProblem, runAnalysesProblem } from '../../../../src/core/model-attention/run-analyses.js';
import { hostMessageProblem, webviewMessageProblem } from '../../../../src/protocol/model-editor.js';
import { attributionOf, lensOf } from '../../../support/run-analyses-fixture.js';

test('an attribution: ids, [layer][head] and per-layer parts of finite numbers', () => {
  const a = attributionOf(2, 3);
  assert.equal(attributionProblem(a), undefined);
  assert.equal(attributionProblem({ ...a, headBias: 0.5 }), undefined);
  assert.match(attributionProblem({ ...a, target: 1.5 }) ?? '', /target or contrast/);
  assert.match(attributionProblem({ ...a, heads: [[1, 2], [3]] }) ?? '', /heads/);
  assert.match(attributionProblem({ ...a, mlps: [1] }) ?? '', /mlps is not one number per layer/);
  assert.match(attributionProblem({ ...a, total: Infinity }) ?? '', /total is not a finite number/);
  assert.match(attributionProblem({ ...a, headBias: 'x' }) ?? '', /headBias/);
});

test('a logit lens: layers of equally many positions, each at most ten tokens with p in [0, 1]', () => {
  const lens = lensOf(2, ['a', 'b']);
  assert.equal(logitLensProblem(lens), undefined);
  assert.match(logitLensProblem([]) ?? '', /not a list of layers/);
  assert.match(logitLensProblem([lens[0], lens[1].slice(1)]) ?? '', /all as long/);
  assert.match(logitLensProblem([[[{ id: 1, token: 'a', p: 2 }]]]) ?? '', /p in \[0, 1\]/);
});

test('the analyses message: counts within the run, generated fewer than its tokens, a step not before the text\'s end', () => {
  const ok = { positions: 5, shown: 5, generated: [{ id: 1, token: 'x' }], patching: [[0.5]], target: ' a', patchFrom: true };
  assert.equal(runAnalysesProblem(ok), undefined);
  assert.equal(hostMessageProblem({ type: 'analyses', ...ok }, undefined), undefined);
  assert.match(runAnalysesProblem({ ...ok, shown: 6 }) ?? '', /shown/);
  assert.match(runAnalysesProblem({ ...ok, shown: 3 }) ?? '', /fewer than the text's own tokens/);
  assert.match(runAnalysesProblem({ ...ok, generated: [{ id: 1 }] }) ?? '', /generated token/);
  assert.match(runAnalysesProblem({ ...ok, target: 5 }) ?? '', /target/);
  assert.match(runAnalysesProblem({ ...ok, patching: [] }) ?? '', /patching/);
  assert.match(runAnalysesProblem({ ...ok, positions: 0 }) ?? '', /positions/);
  // A run of 8,192 tokens (the most a model spec keeps) and 256 generated after it; not one more.
  assert.equal(runAnalysesProblem({ ...ok, positions: 8192 + 256, shown: 8192 + 256 }), undefined);
  assert.match(runAnalysesProblem({ ...ok, positions: 8192 + 257, shown: 8192 + 257 }) ?? '', /positions/);
  // The logit lens message: the lens, or an error alone.
  assert.equal(hostMessageProblem({ type: 'logitLens', lens: lensOf(1, ['a']) }, undefined), undefined);
  assert.equal(hostMessageProblem({ type: 'logitLens', error: 'no' }, undefined), undefined);
  assert.match(hostMessageProblem({ type: 'logitLens', error: 'no', lens: [] }, undefined) ?? '', /error that is not a short text alone/);
  // The webview's requests: the lens, and a step to a count of tokens.
  assert.equal(webviewMessageProblem({ type: 'logitLens' }, undefined), undefined);
  assert.equal(webviewMessageProblem({ type: 'step', tokens: 8 }, undefined), undefined);
  assert.match(webviewMessageProblem({ type: 'step', tokens: -1 }, undefined) ?? '', /not a count of tokens/);
  assert.match(webviewMessageProblem({ type: 'step', tokens: '8' }, undefined) ?? '', /not a count/);
});
