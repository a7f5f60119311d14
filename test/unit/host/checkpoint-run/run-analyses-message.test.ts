// What a spec asks its run for beyond the attention, and what the views are told of the answer
// (src/host/checkpoint-run/run-analyses-message.ts): a plain spec asks nothing; a step stays within the
// text's own tokens and the run's end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analysesMessage, analysisRequest, stepProblem } from '../../../../src/host/checkpoint-run/run-analyses-message.js';
import { readSpec } from '../../../../src/core/spec/read.js';
import type { RunReport } from '../../../../src/protocol/checkpoint-run.js';

const specOf = (text: string) => { const m = readSpec(text).model; assert.ok(m); return m; };

test('a spec asks for what it gives; generate 0 and a plain spec ask for nothing', () => {
  assert.equal(analysisRequest(specOf('{ "model": "gpt2", "text": "a" }')), undefined);
  assert.equal(analysisRequest(specOf('{ "model": "gpt2", "text": "a", "generate": 0 }')), undefined);
  assert.deepEqual(analysisRequest(specOf('{ "model": "gpt2", "text": "a b", "target": 5, "contrast": " c", "patchFrom": "a c" }')),
    { target: '5', contrast: ' c', patchFrom: 'a c' });
  assert.deepEqual(analysisRequest(specOf('{ "model": "gpt2", "text": "a b", "generate": 2 }')), { generate: 2 });
});

test('the views are told the attribution, patching and generated tokens, and step only through the generation', () => {
  const report = { ids: [1, 2, 3, 4, 5], generated: [{ id: 4, token: 'd' }, { id: 5, token: 'e' }], patching: [[1]] } as unknown as RunReport;
  const m = analysesMessage(specOf('{ "model": "gpt2", "text": "a b c", "target": " d", "contrast": " e", "patchFrom": "a b x" }'), report);
  assert.deepEqual(m, { type: 'analyses', positions: 5, shown: 5, target: ' d', contrast: ' e', patchFrom: true, patching: [[1]], generated: report.generated });
  assert.equal(stepProblem(m, 3), undefined);
  assert.equal(stepProblem(m, 5), undefined);
  assert.match(stepProblem(m, 2) ?? '', /outside the run's 3 … 5/);
  assert.match(stepProblem(m, 6) ?? '', /outside/);
  assert.match(stepProblem({ ...m, generated: undefined }, 4) ?? '', /generated no tokens/);
  assert.equal(stepProblem(undefined, 4), 'no run yet');
});
