// A model spec ({ "model", "text", "maxTokens" }, src/core/checkpoint-spec/read-model.ts) is read in the
// spec reader's style: its values when it is sound, else problems at the exact place with their path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../src/core/spec/read.js';
import { analyze } from '../../../../src/core/index.js';
import { formatProblem } from '../../../../src/core/json/problems.js';
import { notRunningReason } from '../../../../src/core/checkpoint-spec/read-model.js';

test('a model spec gives the model, the text and maxTokens, with the place of "model"', () => {
  const text = '{ "model": "models/tiny-gpt2", "text": "The cat sat on the mat. The cat", "maxTokens": 16 }';
  const { model, spec, reference, problems } = readSpec(text);
  assert.deepEqual(problems, []);
  assert.equal(spec, undefined);
  assert.equal(reference, undefined);
  assert.ok(model);
  assert.equal(model.model, 'models/tiny-gpt2');
  assert.equal(model.text, 'The cat sat on the mat. The cat');
  assert.equal(model.maxTokens, 16);
  assert.equal(text.slice(model.modelSpan.offset, model.modelSpan.offset + model.modelSpan.length), '"models/tiny-gpt2"');
  // The core's analysis carries it through to the host, computing nothing.
  const a = analyze(text);
  assert.equal(a.model?.model, 'models/tiny-gpt2');
  assert.equal(a.data, undefined);
});

test('problems of a model spec are placed on the value at fault, in FILE:LINE:COL: path: message form', () => {
  const text = '{\n  "model": 3,\n  "text": "",\n  "maxTokens": 0,\n  "embeddings": {}\n}';
  const { model, problems } = readSpec(text);
  assert.equal(model, undefined);
  const lines = problems.map((p) => formatProblem('m.attn.json', text, p));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:2:12: model: expected a model')), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:3:11: text: the text is empty')), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:4:16: maxTokens: expected a whole number from 1 to 8192, got 0')), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:5:3: warning: embeddings: unknown property "embeddings"')), lines.join('\n'));
});

test('a model spec without "text" says so; a non-integer maxTokens is refused', () => {
  const missing = readSpec('{ "model": "gpt2" }');
  assert.equal(missing.model, undefined);
  assert.match(missing.problems[0].message, /missing "text"/);
  assert.equal(missing.problems[0].path, 'text');
  const half = readSpec('{ "model": "gpt2", "text": "a", "maxTokens": 2.5 }');
  assert.equal(half.model, undefined);
  assert.match(half.problems[0].message, /whole number/);
  // 8,192 tokens through a whole model are a spec's to ask (the run's budget says what its model holds); one more is not.
  assert.equal(readSpec('{ "model": "gpt2", "text": "a", "maxTokens": 8192 }').model?.maxTokens, 8192);
  assert.match(readSpec('{ "model": "gpt2", "text": "a", "maxTokens": 8193 }').problems[0].message, /from 1 to 8192, got 8193/);
});

test('a model spec broken mid-typing is told its error, not to give "model" and "text" it has', () => {
  // Typing in "text" with the closing quote gone: the model views said "give \"model\" and \"text\"".
  const broken = analyze('{\n  "model": "models/induction-gpt2",\n  "text": "The cat sat on the mat. A dog\n}\n');
  assert.equal(broken.model, undefined);
  const reason = notRunningReason(broken.problems);
  assert.match(reason, /unterminated string/);
  assert.doesNotMatch(reason, /give "model"/);
  // A spec that no longer names a model, and has no error, is told what a model spec gives.
  assert.match(notRunningReason([]), /give "model" and "text"/);
});


test('a model spec carries target, contrast, patchFrom and generate, each with its place', () => {
  const text = '{ "model": "gpt2", "text": "When Mary and John went, John gave a drink to", "target": " Mary", "contrast": 1757,\n  "generate": 8 }';
  const { model, problems } = readSpec(text);
  assert.deepEqual(problems, []);
  assert.ok(model);
  assert.equal(model.target, ' Mary');
  // An id written as a number is the same as its digits: the run reads digits as an id.
  assert.equal(model.contrast, '1757');
  assert.equal(model.generate, 8);
  const at = (key: 'target' | 'contrast' | 'patchFrom' | 'generate') => {
    const span = model.analysisSpans?.[key];
    assert.ok(span, key);
    return text.slice(span.offset, span.offset + span.length);
  };
  assert.equal(at('target'), '" Mary"');
  assert.equal(at('contrast'), '1757');
  assert.equal(at('generate'), '8');
  const patched = readSpec('{ "model": "gpt2", "text": "a b", "target": " b", "contrast": " c", "patchFrom": "a c" }').model;
  assert.equal(patched?.patchFrom, 'a c');
  assert.deepEqual(patched?.analysisSpans?.patchFrom, { offset: 81, length: 5 });
  // A spec without them asks the run for nothing more.
  const plain = readSpec('{ "model": "gpt2", "text": "a" }').model;
  assert.ok(plain);
  assert.deepEqual([plain.target, plain.contrast, plain.patchFrom, plain.generate, plain.analysisSpans], [undefined, undefined, undefined, undefined, undefined]);
});

test('wrong types and ranges of the analysis fields are problems at their place', () => {
  const text = '{\n  "model": "gpt2",\n  "text": "a",\n  "target": true,\n  "contrast": -3,\n  "generate": 257,\n  "patchFrom": 5\n}';
  const { model, problems } = readSpec(text);
  assert.equal(model, undefined);
  const lines = problems.map((p) => formatProblem('m.attn.json', text, p));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:4:13: target: expected a token')), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:5:15: contrast: expected a token')), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:6:15: generate: expected a whole number of new tokens from 0 to 256, got 257')), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('m.attn.json:7:16: patchFrom: expected the corrupted text')), lines.join('\n'));
  for (const [field, bad] of [['generate', '2.5'], ['generate', '"3"'], ['target', '""'], ['target', '1.5']] as const) {
    const r = readSpec(`{ "model": "gpt2", "text": "a", "${field}": ${bad} }`);
    assert.equal(r.model, undefined, `${field}: ${bad}`);
    assert.equal(r.problems[0].path, field);
  }
});

test('a contrast without a target, and patching without both, are told what they need', () => {
  const contrast = readSpec('{ "model": "gpt2", "text": "a b", "contrast": " b" }');
  assert.equal(contrast.model, undefined);
  assert.equal(contrast.problems[0].path, 'contrast');
  assert.match(contrast.problems[0].message, /needs a "target"/);
  const patch = readSpec('{ "model": "gpt2", "text": "a b", "target": " b", "patchFrom": "a c" }');
  assert.equal(patch.model, undefined);
  assert.equal(patch.problems[0].path, 'patchFrom');
  assert.match(patch.problems[0].message, /needs "target" and "contrast"/);
  const both = readSpec('{ "model": "gpt2", "text": "a b", "target": " b", "contrast": " c", "patchFrom": "a c", "generate": 2 }');
  assert.equal(both.model, undefined);
  assert.equal(both.problems[0].path, 'generate');
  assert.match(both.problems[0].message, /cannot go with "patchFrom"/);
  // generate 0 is a run without new tokens, and allowed.
  assert.equal(readSpec('{ "model": "gpt2", "text": "a", "generate": 0 }').model?.generate, 0);
});

test('a run\'s problem with an analysis names the key it goes on; a problem of the model names none', async () => {
  const { analysisKeyOf } = await import('../../../../src/core/checkpoint-spec/read-model.js');
  assert.equal(analysisKeyOf('the target token " Mary Ann" is 2 tokens (" Mary" " Ann"), not one: give one token, or its id'), 'target');
  assert.equal(analysisKeyOf('the contrast token 99999 is not a token id of this model (its vocabulary has 50257 ids, 0 to 50256)'), 'contrast');
  assert.equal(analysisKeyOf('the text to patch from is 5 tokens and the text is 6: patching needs two texts of the same number of tokens'), 'patchFrom');
  assert.equal(analysisKeyOf('patching compares two texts of the same tokens: it cannot be combined with generation'), 'patchFrom');
  assert.equal(analysisKeyOf('1020 tokens and 10 generated are more than the model\'s context length of 1024'), 'generate');
  assert.equal(analysisKeyOf('config.json: "n_head" is missing'), undefined);
});
