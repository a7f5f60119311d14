// Costs are estimated from the shapes before anything is allocated: a few kilobytes of spec must
// not be able to ask for gigabytes, and a refused spec is refused at the place that asks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { MAX_HEADS, MAX_IDENTITY_CELLS, MAX_INPUT_NUMBERS } from '../../../../../src/core/spec/read/limits.js';
import { MAX_INPUTS } from '../../../../../src/core/spec/read/inputs.js';
import { MAX_PROBLEMS } from '../../../../../src/core/spec/read/values.js';

const at = (text: string, p: { span: { offset: number; length: number } }) => text.slice(p.span.offset, p.span.offset + p.span.length);
const zeros = (n: number) => `[${new Array(n).fill(0).join(',')}]`;

test('1,000 heads with an identity W_O (a 3 KB spec) are refused on "heads" before any identity is built', () => {
  const text = JSON.stringify({ embeddings: { a: [1, 2] }, inputs: [{ tokens: ['a'] }], heads: Array.from({ length: 1000 }, () => ({})), wo: 'identity' });
  const { spec, problems } = readSpec(text);
  assert.equal(spec, undefined);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, 'heads');
  assert.equal(problems[0].message, `1,000 heads, more than the ${MAX_HEADS} one spec may have`);
  assert.ok(at(text, problems[0]).startsWith('[{}'));
});

test('2,000,000 empty heads are refused by count, not read one by one', () => {
  const text = `{"embeddings":{"a":[1]},"inputs":[{"tokens":["a"]}],"heads":[${new Array(2_000_000).fill('{}').join(',')}]}`;
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /^2,000,000 heads, more than/);
});

for (const dModel of [5_000, 200_000]) {
  test(`d_model ${dModel} with identity W_Q, W_K, W_V is refused from its shape (it would be ${3 * dModel * dModel} numbers)`, () => {
    const text = `{"embeddings":{"a":${zeros(dModel)}},"inputs":[{"tokens":["a"]}]}`;
    const { spec, problems } = readSpec(text);
    assert.equal(spec, undefined);
    const p = problems.find((q) => q.path === 'heads');
    assert.ok(p, JSON.stringify(problems));
    assert.match(p.message, new RegExp(`3 identity matrices of d_model × d_model = ${dModel} × ${dModel} .* over the ${MAX_IDENTITY_CELLS.toLocaleString('en-US')} limit`));
    assert.equal(p.span.offset, 0); // no "heads": on the opening brace
  });
}

test('an identity W_O as wide as a huge W_V is refused on "wo"', () => {
  const width = 3000;
  const text = `{"embeddings":{"a":[1]},"inputs":[{"tokens":["a"]}],"heads":[{"wq":[[1]],"wk":[[1]],"wv":[${zeros(width)}]}],"wo":"identity"}`;
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, 'wo');
  assert.equal(at(text, problems[0]), '"identity"');
  assert.match(problems[0].message, /W_O as the identity, 3000 × 3000, would hold 9,000,000 numbers/);
});

test('identities that fit are still read (the default head of a d_model-1,000 spec)', () => {
  const text = `{"embeddings":{"a":${zeros(1000)}},"inputs":[{"tokens":["a"]}]}`;
  const { spec, problems } = readSpec(text);
  assert.deepEqual(problems, []);
  assert.equal(spec?.heads[0].wq.matrix.rows, 1000);
});

test(`more than ${MAX_INPUTS} inputs are refused on "inputs"`, () => {
  const text = JSON.stringify({ embeddings: { a: [1] }, inputs: Array.from({ length: MAX_INPUTS + 1 }, () => ({ tokens: ['a'] })) });
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, 'inputs');
  assert.match(problems[0].message, new RegExp(`^${MAX_INPUTS + 1} inputs, more than the ${MAX_INPUTS}`));
});

test(`300,000 bad numbers give ${MAX_PROBLEMS} problems and one line saying there are more`, () => {
  const text = `{"embeddings":{"a":[${new Array(300_000).fill('"x"').join(',')}]},"inputs":[{"tokens":["a"]}]}`;
  const { spec, problems } = readSpec(text);
  assert.equal(spec, undefined);
  assert.equal(problems.length, MAX_PROBLEMS + 1);
  assert.match(problems[MAX_PROBLEMS].message, new RegExp(`more than ${MAX_PROBLEMS} problems: only the first ${MAX_PROBLEMS} are listed`));
});

test('the inputs\' vectors are refused past MAX_INPUT_NUMBERS (tokens × d_model over all inputs), from the shapes, at the boundary exactly', () => {
  // d_model 1,024 and 2^15 tokens (256 inputs of 128) fill the limit exactly; one token more is over it.
  const thin = (seed: number) => ({ init: 'xavier', shape: [1024, 1], seed });
  const spec = (extra: number) => JSON.stringify({
    embeddings: { a: Array.from({ length: 1024 }, (_, i) => (i === 0 ? 1 : 0)) },
    inputs: Array.from({ length: 256 }, (_, i) => ({ name: `x${i}`, tokens: Array(128 + (i === 0 ? extra : 0)).fill('a') })),
    heads: [{ name: 'h', wq: thin(1), wk: thin(2), wv: thin(3) }],
  });
  assert.equal(1024 * 256 * 128, MAX_INPUT_NUMBERS);
  assert.deepEqual(readSpec(spec(0)).problems.filter((p) => p.severity === 'error'), []);
  const over = readSpec(spec(1)).problems.filter((p) => p.severity === 'error');
  assert.equal(over.length, 1);
  assert.match(over[0].message, /^the inputs' vectors would hold 33,555,456 numbers \(32,769 tokens over 256 input\(s\) × d_model 1,024\), over the 33,554,432 limit/);
});
