// The model spec read on the host's thread (src/host/checkpoint-run/spec-text.ts) finds what the analysis
// finds (core's readSpec, which the analysis worker runs) for model specs, running or broken, and
// leaves every other spec, and a text too long to parse on the host, to the analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../src/core/spec/read.js';
import { HOST_READ_MAX, readModelSpecText } from '../../../../src/host/checkpoint-run/spec-text.js';
import { exampleText } from '../../../support/specs.js';

const modelSpecs = [
  '{ "model": "gpt2", "text": "The cat sat on the mat. The cat" }',
  '{ "model": "models/tiny", "text": "a b", "maxTokens": 8, "title": "t" }',
  '{ "model": "gpt2", "text": "" }',
  '{ "model": "gpt2" }',
  '{ "model": "gpt2", "text": "a", "maxTokens": 0 }',
  '{ "model": "gpt2", "text": "a", "model": "x" }',
  '{ "model": "gpt2", "text": "a", "colour": 3 }',
  '{ "model": 3, "text": "a" }',
  '{ "model": "gpt2", "text": "unterminated',
];

test('a model spec, running or not, reads here as the analysis reads it', () => {
  for (const text of modelSpecs) {
    const here = readModelSpecText(text);
    assert.ok(here, text);
    const there = readSpec(text);
    assert.deepEqual(here, { ...(there.model ? { model: there.model } : {}), problems: there.problems }, text);
  }
  assert.equal(readModelSpecText(modelSpecs[0])?.model?.text, 'The cat sat on the mat. The cat');
  assert.equal(readModelSpecText(modelSpecs[1])?.model?.maxTokens, 8);
});

test('every other spec, and a text too long to parse here, is left to the analysis', () => {
  assert.equal(readModelSpecText(exampleText('apple-watch-lens.attn.json')), undefined);
  assert.equal(readModelSpecText('{ "attention": { "file": "a.safetensors" }, "model": "gpt2" }'), undefined);
  assert.equal(readModelSpecText('[{ "model": "gpt2" }]'), undefined);
  assert.equal(readModelSpecText('{ "inputs": { "model": 1 } }'), undefined);
  const long = JSON.stringify({ model: 'gpt2', text: 'a'.repeat(HOST_READ_MAX) });
  assert.equal(readModelSpecText(long), undefined);
});
