// The model spec read on the host's thread (src/host/checkpoint-run/spec-text.ts) finds what the analysis
// finds (core's readSpec, which the analysis worker runs) for model specs, running or broken, and
// leaves every other spec, and a text too long or too heavy with structure to parse on the host, to
// the analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readSpec } from '../../../../src/core/spec/read.js';
import { HOST_READ_MAX, HOST_STRUCTURE_MAX, readModelSpecText } from '../../../../src/host/checkpoint-run/spec-text.js';
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
  '{ "model": "gpt2", "text": "a b", "target": " b", "contrast": 7, "generate": 3 }',
  '{ "model": "gpt2", "text": "a b", "target": [], "generate": 300 }',
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
  // A long run through a whole model: 8,192 tokens are the session's to run (the run's budget says what the model holds).
  assert.equal(readModelSpecText('{ "model": "m", "text": "a", "maxTokens": 8192 }')?.model?.maxTokens, 8192);
  assert.deepEqual(readModelSpecText('{ "model": "m", "text": "a", "maxTokens": 8193 }')?.problems.map((p) => p.path), ['maxTokens']);
  const asked = readModelSpecText(modelSpecs[9])?.model;
  assert.deepEqual([asked?.target, asked?.contrast, asked?.patchFrom, asked?.generate], [' b', '7', undefined, 3]);
  assert.deepEqual(readModelSpecText(modelSpecs[10])?.problems.map((p) => p.path), ['target', 'generate']);
});

test('every other spec, and a text too long to parse here, is left to the analysis', () => {
  assert.equal(readModelSpecText(exampleText('apple-watch-lens.attn.json')), undefined);
  assert.equal(readModelSpecText('{ "attention": { "file": "a.safetensors" }, "model": "gpt2" }'), undefined);
  assert.equal(readModelSpecText('[{ "model": "gpt2" }]'), undefined);
  assert.equal(readModelSpecText('{ "inputs": { "model": 1 } }'), undefined);
  const long = JSON.stringify({ model: 'gpt2', text: 'a'.repeat(HOST_READ_MAX) });
  assert.equal(readModelSpecText(long), undefined);
});

test('a text under the length cap but heavy with structure is left to the analysis, found before any parse', () => {
  // Before: each was parsed on the host's thread, 0.4 to 0.9 s apiece (a node per value, a problem
  // per repeated key or bad number), at every edit of the document.
  const near = (pre: string, unit: string, post: string) => pre + unit.repeat(Math.floor((HOST_READ_MAX - pre.length - post.length) / unit.length)) + post;
  for (const heavy of [
    near('{"model":"x"', ',"text":"1"', '}'),
    near('{"model":"x","text":[', '1,', '1]}'),
    near('{"model":"x","text":[', '01,', '1]}'),
    near('{"model":"x","text":[', '{"a":[1]},', '1]}'),
    near('{"model":"x"', ' ', '}'),
  ]) {
    assert.ok(heavy.length <= HOST_READ_MAX);
    assert.equal(readModelSpecText(heavy), undefined, heavy.slice(0, 40));
  }
  // A long text is one string, however many quotes, commas and braces it holds: still read here.
  const prose = near('{"model":"x","text":"', 'a \\"quoted\\", {braced} [listed]: ', '"}');
  assert.equal(readModelSpecText(prose)?.problems.length, 1);
  const structure = (n: number) => `{"model":"x","text":"a","title":"${'t'.repeat(10)}"${' '.repeat(n)}}`;
  assert.ok(readModelSpecText(structure(HOST_STRUCTURE_MAX - 100)));
  assert.equal(readModelSpecText(structure(HOST_STRUCTURE_MAX)), undefined);
});

test('whatever model-spec-like text it is given, what is read here is what the analysis reads', () => {
  const key = fc.constantFrom('model', 'text', 'maxTokens', 'title', 'description', '$schema', 'heads', 'inputs', 'attention', 'colour', '__proto__');
  const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -2, max: 9 }), fc.double(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.boolean());
  const text = fc.tuple(fc.array(fc.tuple(key, value), { maxLength: 6 }), fc.constantFrom('', ' ', '\n  '), fc.integer({ min: 0, max: 30 }))
    .map(([entries, space, cut]) => {
      const whole = `{${space}"model"${space}:${space}"m"${entries.map(([k, v]) => `,${space}${JSON.stringify(k)}:${JSON.stringify(v)}`).join('')}${space}}`;
      return cut > 25 ? whole.slice(0, whole.length - cut) : whole;
    });
  fc.assert(fc.property(text, (t) => {
    const here = readModelSpecText(t);
    if (!here) return;
    const there = readSpec(t);
    assert.deepEqual(here, { ...(there.model ? { model: there.model } : {}), problems: there.problems }, t);
  }), { seed: 20261127, numRuns: 2000 });
});
