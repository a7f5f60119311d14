// Masks, scaling and multiple heads through analyze(): the path the extension and the CLI take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../src/core/index.js';
import { analyzeOk } from '../../../support/specs.js';

const BASE = { features: ['a', 'b'], embeddings: { x: [1, 0], y: [0, 1], z: [1, 1] } };

test('a fully masked query row gets zero weights and a warning on that token, never NaN', () => {
  const text = JSON.stringify({ ...BASE, inputs: [{ tokens: ['x', 'y', 'z'], mask: [[1, 1, 1], [0, 0, 0], [1, 1, 1]] }] }, null, 2);
  const a = analyze(text, { json: true });
  assert.ok(a.json);
  assert.deepEqual(a.json.inputs[0].heads[0].weights[1], [0, 0, 0]);
  assert.deepEqual(a.json.inputs[0].heads[0].output[1], [0, 0]);
  const warning = a.problems.find((p) => p.severity === 'warning');
  assert.ok(warning);
  assert.equal(warning.path, 'inputs[0].tokens[1]');
  assert.match(warning.message, /every key is masked for query "y"/);
  assert.equal(text.slice(warning.span.offset, warning.span.offset + warning.span.length), '"y"');
});

test('causal: the first token attends only to itself, later ones never to the future', () => {
  const { json } = analyzeOk({ ...BASE, inputs: [{ tokens: ['x', 'y', 'z'] }], mask: 'causal' });
  const w = json.inputs[0].heads[0].weights;
  assert.deepEqual(w[0], [1, 0, 0]);
  assert.equal(w[1][2], 0);
  assert.equal(json.inputs[0].heads[0].scaled[0][2], null);
});

test('scale: sqrt_dk divides by √d_k, a number divides by itself, none leaves scores alone', () => {
  const spec = { ...BASE, inputs: [{ tokens: ['x', 'z'] }] };
  const byScale = (scale: unknown) => analyzeOk({ ...spec, scale }).json.inputs[0].heads[0];
  assert.equal(byScale('sqrt_dk').divisor, Math.SQRT2);
  assert.equal(byScale('none').scaled[1][1], 2);
  assert.equal(byScale(4).scaled[1][1], 0.5);
});

test('two heads: each keeps its own name and widths, and the outputs are joined in order', () => {
  const { json } = analyzeOk({ ...BASE, inputs: [{ tokens: ['x', 'y'] }], heads: [{ name: 'first', wv: [[1], [0]] }, { name: 'second' }] });
  const input = json.inputs[0];
  assert.deepEqual(input.heads.map((h) => [h.name, h.dk, h.dv]), [['first', 2, 1], ['second', 2, 2]]);
  assert.equal(input.concat[0].length, 3);
  assert.deepEqual(input.concat[0], [...input.heads[0].output[0], ...input.heads[1].output[0]]);
  assert.deepEqual(input.output, input.concat);
});

test('numbers that multiply past a double are an error on the head, not NaN in the picture', () => {
  const text = JSON.stringify({ ...BASE, embeddings: { x: [1e200, 1e200], y: [0, 1], z: [1, 1] }, inputs: [{ tokens: ['x', 'y'] }], heads: [{ name: 'big' }] }, null, 2);
  const a = analyze(text);
  assert.equal(a.json, undefined);
  const p = a.problems.find((x) => x.severity === 'error');
  assert.ok(p);
  assert.equal(p.path, 'heads[0]');
  assert.match(p.message, /the numbers grow too large to compute: scores of "x" in head "big" overflows past the largest number \(±1\.8e308\); use smaller embeddings or weights/);
});

test('a scale so small that the scaled scores overflow says the scale is the cause', () => {
  const text = JSON.stringify({ ...BASE, inputs: [{ tokens: ['x', 'z'] }], scale: 1e-320 });
  const a = analyze(text);
  assert.equal(a.json, undefined);
  assert.match(a.problems[0].message, /scaled of "x" .* overflows past the largest number \(±1\.8e308\); the scale divides the scores by too small a number/);
  // Underlined on the scale itself, the number the user must change.
  assert.equal(a.problems[0].path, 'scale');
  assert.equal(text.slice(a.problems[0].span.offset, a.problems[0].span.offset + a.problems[0].span.length), '1e-320');
});

test('a fully masked row is reported once, whatever the number of heads', () => {
  const a = analyze(JSON.stringify({ ...BASE, inputs: [{ tokens: ['x', 'y'], mask: [[0, 0], [1, 1]] }], heads: [{}, {}, {}] }), { json: true });
  assert.equal(a.problems.length, 1);
  assert.match(a.problems[0].message, /in every head/);
});
