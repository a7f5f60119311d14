// The "train" section (src/core/spec/read/train.ts): which head, which matrices, toward which
// targets, how many steps at what rate, each problem placed where it is written; a target the mask
// hides is refused; a run's cost (stepWork) is counted from the shapes and capped (trainOverLimit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { MAX_TRAIN_STEPS, MAX_TRAIN_WORK, stepWork, trainOverLimit } from '../../../../../src/core/spec/read/train.js';
import { exampleText } from '../../../../support/specs.js';

const BASE = { embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ name: 'h' }] };
const problemOf = (trainSection: unknown, extra: object = {}) => {
  const text = JSON.stringify({ ...BASE, ...extra, train: trainSection });
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1, JSON.stringify(problems));
  return { ...problems[0], at: text.slice(problems[0].span.offset, problems[0].span.offset + problems[0].span.length) };
};
const trainOf = (trainSection: unknown, extra: object = {}) => {
  const { spec, problems } = readSpec(JSON.stringify({ ...BASE, ...extra, train: trainSection }));
  assert.deepEqual(problems, []);
  return spec!.train!;
};

// Moved from test/unit/core/train/descent.test.ts, every assertion kept.
test('bad "train" sections: unknown head or token, a key the mask hides, too many steps, a bad rate', () => {
  assert.match(problemOf({ head: 'nope', targets: [{ query: 'a', key: 'b' }] }).message, /no head named "nope"; the heads are "h"/);
  const unknown = problemOf({ targets: [{ query: 'zz', key: 'b' }] });
  assert.equal(unknown.path, 'train.targets[0].query');
  assert.equal(unknown.at, '"zz"');
  const hiddenKey = problemOf({ targets: [{ query: 'a', key: 'b' }] }, { mask: 'causal' });
  assert.equal(hiddenKey.path, 'train.targets[0].key');
  assert.match(hiddenKey.message, /the mask hides "b" from "a": its weight is 0 whatever the matrices/);
  assert.match(problemOf({ targets: [{ query: 'a', key: 'b' }], steps: 1e6 }).message, /1000000 steps, more than the 100,000/);
  assert.match(problemOf({ targets: [{ query: 'a', key: 'b' }], rate: -1 }).message, /the rate must be a positive number/);
  assert.match(problemOf({ targets: [{ query: 'a', output: [1] }] }).message, /1 number, expected 2 \(d_v of the training head\)/);
});

test('no "train" section: the spec has none', () => {
  const { spec, problems } = readSpec(JSON.stringify(BASE));
  assert.deepEqual(problems, []);
  assert.equal(spec!.train, undefined);
  assert.equal('train' in spec!, false);
});

test('the defaults: head 0, learn W_Q and W_K, 100 steps at rate 0.1; tokens by text or index', () => {
  const t = trainOf({ targets: [{ query: 'a', key: 1 }] });
  assert.equal(t.head, 0);
  assert.deepEqual(t.learn, ['wq', 'wk']);
  assert.equal(t.steps, 100);
  assert.equal(t.rate, 0.1);
  assert.deepEqual(t.targets.map(({ span: _, ...rest }) => rest), [{ kind: 'attention', input: 0, query: 0, key: 1 }]);
});

test('the example learn-apple-watch reads as written: watch should attend to apple', () => {
  const { spec } = readSpec(exampleText('learn-apple-watch.attn.json'));
  const t = spec!.train!;
  const tokens = spec!.inputs[0].tokens.map((x) => x.text);
  const target = t.targets[0];
  assert.equal(target.kind, 'attention');
  assert.equal(tokens[target.query], 'watch');
  assert.equal(tokens[(target as { key: number }).key], 'apple');
});

test('a head by name or index, the matrices listed, an output target, steps and rate as given', () => {
  const extra = { heads: [{ name: 'first' }, { name: 'second', wv: [[1], [0]] }], inputs: [{ tokens: ['a', 'b'] }, { name: 'two', tokens: ['b', 'a', 'b'] }] };
  const t = trainOf({ head: 'second', learn: ['wv', 'wq'], steps: 0, rate: 2.5, targets: [{ input: 1, query: 'b', output: [0.5] }] }, extra);
  assert.equal(t.head, 1);
  assert.deepEqual(t.learn, ['wv', 'wq']);
  assert.equal(t.steps, 0);
  assert.equal(t.rate, 2.5);
  assert.equal(t.targets[0].kind, 'output');
  // "b" is the first occurrence: index 0 of input 1.
  assert.deepEqual([t.targets[0].input, t.targets[0].query, Array.from((t.targets[0] as { output: Float64Array }).output)], [1, 0, [0.5]]);
  assert.equal(trainOf({ head: 1, targets: [{ query: 0, key: 0 }] }, extra).head, 1);
});

test('each bad field is refused at its own path, with its own sentence', () => {
  const cases: [unknown, object, string, RegExp][] = [
    [{ head: 3, targets: [{ query: 'a', key: 'b' }] }, {}, 'train.head', /^no head 3: the spec has 1 head\(s\), numbered from 0$/],
    [{ head: true, targets: [{ query: 'a', key: 'b' }] }, {}, 'train.head', /^expected a head's index or name, got true$/],
    [{ learn: [], targets: [{ query: 'a', key: 'b' }] }, {}, 'train.learn', /^expected a non-empty list of "wq", "wk", "wv", got a list of 0$/],
    [{ learn: ['wq', 'wo'], targets: [{ query: 'a', key: 'b' }] }, {}, 'train.learn[1]', /^expected "wq", "wk" or "wv", got a string "wo"$/],
    [{ learn: ['wk', 'wk'], targets: [{ query: 'a', key: 'b' }] }, {}, 'train.learn[1]', /^"wk" is listed twice$/],
    [{ steps: 2.5, targets: [{ query: 'a', key: 'b' }] }, {}, 'train.steps', /^expected a whole number of steps, 0 or more, got 2.5$/],
    [{ steps: -1, targets: [{ query: 'a', key: 'b' }] }, {}, 'train.steps', /got -1$/],
    [{ rate: 0, targets: [{ query: 'a', key: 'b' }] }, {}, 'train.rate', /the rate must be a positive number \(W ← W − rate · ∂L\/∂W\), got 0/],
    [{}, {}, 'train', /^training needs "targets"/],
    [{ targets: [] }, {}, 'train.targets', /^expected a non-empty list of targets, got a list of 0$/],
    [{ targets: [{ key: 'b' }] }, {}, 'train.targets[0]', /^a target needs "query"/],
    [{ targets: [{ query: 'a' }] }, {}, 'train.targets[0]', /^a target needs "key" \(whom the query should attend to\) or "output"/],
    [{ targets: [{ query: 'a', key: 'b', output: [1, 0] }] }, {}, 'train.targets[0].output', /^a target takes "key" or "output", not both$/],
    [{ targets: [{ input: 1, query: 'a', key: 'b' }] }, {}, 'train.targets[0].input', /^no input 1: the spec has 1, numbered from 0$/],
    [{ targets: [{ query: 'a', key: 2 }] }, {}, 'train.targets[0].key', /^no token 2 in input "input 1": it has 2, numbered from 0$/],
    [{ targets: [{ query: 'a', key: null }] }, {}, 'train.targets[0].key', /^expected a token's text or index, got null$/],
    [[], {}, 'train', /training options/],
  ];
  for (const [section, extra, path, message] of cases) {
    const p = problemOf(section, extra);
    assert.equal(p.path, path, JSON.stringify(section));
    assert.match(p.message, message, JSON.stringify(section));
  }
});

test('a key hidden by the input\'s own mask is refused like one the causal mask hides', () => {
  const p = problemOf({ targets: [{ query: 'b', key: 'a' }] }, { inputs: [{ tokens: ['a', 'b'], mask: [[1, 1], [0, 1]] }] });
  assert.equal(p.path, 'train.targets[0].key');
  assert.equal(p.at, '"a"');
  assert.match(p.message, /^the mask hides "a" from "b": /);
  // The causal mask hides only later keys: a query may still be trained toward an earlier one.
  assert.equal(trainOf({ targets: [{ query: 'b', key: 'a' }] }, { mask: 'causal' }).targets.length, 1);
});

test('more than 1,000 targets are refused on the list', () => {
  const p = problemOf({ targets: Array.from({ length: 1001 }, () => ({ query: 'a', key: 'b' })) });
  assert.equal(p.path, 'train.targets');
  assert.equal(p.message, 'more than 1,000 targets');
});

test('stepWork counts 3·n·d·(2·d_k + d_v) + 4·n²·(d_k + d_v) per input that has a target', () => {
  const { spec } = readSpec(JSON.stringify({ ...BASE, inputs: [{ tokens: ['a', 'b'] }, { tokens: ['a', 'b', 'a'] }] }));
  const head = spec!.heads[0];
  const target = (input: number) => ({ kind: 'attention' as const, input, query: 0, key: 0 });
  // n = 2, d_model = d_k = d_v = 2: 3·2·2·6 + 4·4·4 = 72 + 64 = 136.
  assert.equal(stepWork(spec!.inputs, head, [target(0)], 2), 136);
  // Two targets on one input count it once; n = 3: 3·3·2·6 + 4·9·4 = 108 + 144 = 252.
  assert.equal(stepWork(spec!.inputs, head, [target(0), target(0)], 2), 136);
  assert.equal(stepWork(spec!.inputs, head, [target(0), target(1)], 2), 136 + 252);
});

test('trainOverLimit: at most 100,000 steps and 2 billion multiply-adds, said in words', () => {
  assert.equal(MAX_TRAIN_STEPS, 100_000);
  assert.equal(MAX_TRAIN_WORK, 2e9);
  assert.equal(trainOverLimit(MAX_TRAIN_STEPS, 20_000), undefined);
  assert.equal(trainOverLimit(MAX_TRAIN_STEPS + 1, 1), '100001 steps, more than the 100,000 one run may take');
  assert.equal(trainOverLimit(1000, 2e6 + 1), '1000 steps of this head need about 2.0 billion multiply-adds, over the 2 billion limit: use fewer steps or tokens');
  assert.equal(trainOverLimit(1000, 2e6), undefined);
  // In a spec, the cost is refused on "steps".
  const tokens = Array.from({ length: 200 }, (_, i) => (i % 2 ? 'a' : 'b'));
  const p = problemOf({ targets: [{ query: 0, key: 1 }], steps: 100_000 }, { inputs: [{ tokens }] });
  assert.equal(p.path, 'train.steps');
  assert.equal(p.at, '100000');
  assert.match(p.message, /^100000 steps of this head need about \d+\.\d billion multiply-adds/);
});
