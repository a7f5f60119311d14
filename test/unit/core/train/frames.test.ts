// What the Training view plays back (src/core/train/frames.ts): the loss at every step and at most
// 101 snapshots, evenly spaced from step 0 to the last, of the learnt matrices and of the head's
// attention on the first target's input; a run past the panel's budget is named, not trained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FRAMES, PANEL_TRAIN_WORK, trainingJson } from '../../../../src/core/train/frames.js';
import { readSpec } from '../../../../src/core/spec/read.js';
import { analyze } from '../../../../src/core/index.js';
import { stepWork } from '../../../../src/core/spec/read/train.js';
import { toRows } from '../../../../src/core/linalg/matrix.js';
import { exampleText } from '../../../support/specs.js';

const specOf = (text: string) => {
  const { spec, problems } = readSpec(text);
  assert.deepEqual(problems, []);
  return spec!;
};

test('a spec without "train" has no training', () => {
  assert.equal(trainingJson(specOf(JSON.stringify({ embeddings: { a: [1] }, inputs: [{ tokens: ['a'] }] }))), undefined);
});

test('learn-apple-watch: 201 losses, 101 frames at every second step, the first frame the spec\'s own head', () => {
  const text = exampleText('learn-apple-watch.attn.json');
  const t = trainingJson(specOf(text))!;
  assert.equal(MAX_FRAMES, 101);
  assert.deepEqual([t.head, t.headName, t.learn, t.rate, t.steps, t.input], [0, 'learnt lens', ['wq', 'wk'], 0.1, 200, 0]);
  assert.deepEqual(t.targets, [{ input: 0, query: 3, key: 2 }]);
  assert.equal(t.tooBig, undefined);
  assert.equal(t.stoppedAt, undefined);
  assert.equal(t.loss.length, 201);
  assert.ok(t.loss[200] < t.loss[0]);
  // 201 states, 101 frames: steps 0, 2, 4, …, 200.
  assert.deepEqual(t.frames.map((f) => f.step), Array.from({ length: 101 }, (_, k) => 2 * k));
  // Frame 0 is the spec as written: identity W_Q, W_K, W_V and the head's attention as analyze computes it.
  const f0 = t.frames[0];
  const id = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  assert.deepEqual([f0.wq, f0.wk, f0.wv], [id, id, id]);
  assert.deepEqual(f0.weights, toRows(analyze(text).data!.inputs[0].heads[0].weights));
  // W_V is not learnt: it stays the identity to the last frame; W_Q does change.
  const last = t.frames.at(-1)!;
  assert.deepEqual(last.wv, id);
  assert.notDeepEqual(last.wq, id);
  // Every frame's weights are rows that sum to 1, and watch (3) attends to apple (2) more at the end than at the start.
  for (const f of t.frames) for (const row of f.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.ok(last.weights[3][2] > f0.weights[3][2]);
  assert.ok(last.weights[3][2] > 0.9, `watch on apple: ${last.weights[3][2]}`);
});

test('fewer states than 101: one frame per step', () => {
  const spec = JSON.parse(exampleText('learn-apple-watch.attn.json'));
  spec.train.steps = 4;
  const t = trainingJson(specOf(JSON.stringify(spec)))!;
  assert.equal(t.loss.length, 5);
  assert.deepEqual(t.frames.map((f) => f.step), [0, 1, 2, 3, 4]);
  spec.train.steps = 0;
  const none = trainingJson(specOf(JSON.stringify(spec)))!;
  assert.deepEqual(none.frames.map((f) => f.step), [0]);
});

test('an output target keeps its vector; learn-value learns W_V only', () => {
  const t = trainingJson(specOf(exampleText('learn-value.attn.json')))!;
  assert.deepEqual(t.targets, [{ input: 0, query: 3, output: [3, 0, 0] }]);
  assert.deepEqual(t.learn, ['wv']);
  assert.deepEqual(t.frames[0].wq, t.frames.at(-1)!.wq);
  assert.notDeepEqual(t.frames[0].wv, t.frames.at(-1)!.wv);
});

test('past the panel\'s 5 million multiply-adds: no loss, no frames, and a sentence naming attn train', () => {
  assert.equal(PANEL_TRAIN_WORK, 5e6);
  const spec = JSON.parse(exampleText('learn-apple-watch.attn.json'));
  const read = specOf(JSON.stringify(spec));
  const perStep = stepWork(read.inputs, read.heads[0], read.train!.targets, read.dModel);
  // n = 4, d = d_k = d_v = 3: 3·4·3·9 + 4·16·6 = 324 + 384 = 708 multiply-adds a step.
  assert.equal(perStep, 708);
  spec.train.steps = Math.floor(PANEL_TRAIN_WORK / perStep);
  assert.equal(trainingJson(specOf(JSON.stringify(spec)))!.tooBig, undefined);
  spec.train.steps += 1;
  const t = trainingJson(specOf(JSON.stringify(spec)))!;
  assert.deepEqual([t.loss, t.frames], [[], []]);
  assert.equal(t.tooBig, `${spec.train.steps} steps are too many to train in the panel (about 5 million multiply-adds): run attn train, or use fewer steps`);
});

test('the run carries each target\'s progress at every step: learn-apple-watch\'s watch → apple weight from 0.0096 to 0.999, learn-value\'s distance to [3, 0, 0] down to 0', () => {
  const watch = analyze(exampleText('learn-apple-watch.attn.json')).data!.training!;
  assert.equal(watch.progress!.length, 1);
  assert.equal(watch.progress![0].length, watch.loss.length);
  assert.equal(Number(watch.progress![0][0].toFixed(4)), 0.0096);
  assert.equal(Number(watch.progress![0][200].toFixed(3)), 0.999);
  // The same number the frames' attention shows at their steps.
  for (const f of watch.frames) assert.ok(Math.abs(watch.progress![0][f.step] - f.weights[3][2]) < 1e-12);
  const value = analyze(exampleText('learn-value.attn.json')).data!.training!;
  const d = value.progress![0];
  assert.equal(d.length, 301);
  assert.ok(Math.abs(d[0] - Math.hypot(...[0, 1, 2].map((j) => value.frames[0].weights[3].reduce((s, w, k) => s + w * [[0, 0, 0.5], [0.5, 0.5, 0.5], [2, 0, 2], [1, 3, 0]][k][j], 0) - [3, 0, 0][j]))) < 1e-9, 'step 0: ‖output of watch − [3, 0, 0]‖');
  assert.ok(d[300] < 1e-6 && d[0] > 3);
});

test('a run whose loss overflows before the first step names the target and what to change, not "Nothing to play" alone', () => {
  // The attention itself is finite; the second target's output (1e200) squares past the doubles.
  const text = JSON.stringify({
    embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ name: 'x', tokens: ['a', 'b'] }],
    heads: [{ name: 'h' }],
    train: { head: 'h', learn: ['wq', 'wv'], targets: [{ input: 0, query: 'a', key: 'b' }, { input: 0, query: 'b', output: [1e200, 0] }], steps: 3, rate: 0.1 },
  });
  const t = trainingJson(specOf(text))!;
  assert.deepEqual([t.loss, t.frames], [[], []]);
  assert.equal(t.tooBig, 'Nothing to play: the loss of target 2 of 2 (the output of "b" in input "x") overflows before the first step ' +
    '(the spec\'s numbers are too large as they are, so no rate can train them): use a smaller "output" for it, or smaller embeddings or W_V in head "h".');
  const a = analyze(text);
  assert.equal(a.data?.training?.tooBig, t.tooBig, 'the panel\'s data carries it');
});
