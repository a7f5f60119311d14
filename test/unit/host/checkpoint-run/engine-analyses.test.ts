// The real engine (src/host/checkpoint-run/engine.ts) asked for more than the attention, on a tiny GPT-2
// folder the test writes: a target gives the attribution whose parts add up to its total, generation
// gives N new tokens with attention over prompt and generated, patching gives a score per head, and
// the logit lens (asked after the run) covers every layer and position, is kept until the next run,
// and its last layer is the run's own prediction (kept across a run of the same tokens). A plain run
// asks for none of them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realEngine } from '../../../../src/host/checkpoint-run/engine.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';

const root = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(root, { recursive: true, force: true }));
const folder = writeTinyGpt2(join(root, 'tiny-gpt2'));
const TEXT = 'The cat sat on the mat. The cat';

test('a target gives the attribution at the last position, its parts adding up to its total', () => {
  const engine = realEngine();
  const plain = engine.run(folder, TEXT);
  assert.equal(plain.analyses, undefined);
  const target = String(plain.next[0].id);
  const run = engine.run(folder, TEXT, undefined, undefined, 'f64', { target });
  const a = run.analyses?.attribution;
  assert.ok(a);
  assert.equal(a.target, plain.next[0].id);
  assert.equal(a.contrast, null);
  assert.equal(a.heads.length, run.model.layers);
  assert.equal(a.heads[0].length, run.model.heads);
  const sum = a.heads.flat().reduce((s, v) => s + v, 0) + a.attentionBias.reduce((s, v) => s + v, 0) + a.mlps.reduce((s, v) => s + v, 0) + a.embed + a.normBias + (a.headBias ?? 0);
  assert.ok(Math.abs(sum - a.total) < 1e-9 * Math.max(1, Math.abs(a.total)), `${sum} vs ${a.total}`);
  engine.close();
});

test('generation appends N tokens: the run\'s ids and attention cover prompt and generated', () => {
  const engine = realEngine();
  const prompt = engine.run(folder, TEXT).ids.length;
  const run = engine.run(folder, TEXT, undefined, undefined, 'f32', { generate: 3 });
  const generated = run.analyses?.generated;
  assert.equal(generated?.length, 3);
  assert.equal(run.ids.length, prompt + 3);
  assert.deepEqual(run.ids.slice(prompt), generated.map((g) => g.id));
  assert.equal(run.attention[0].length, run.model.heads * (prompt + 3) ** 2);
  engine.close();
});

test('the logit lens is a pass again at the first ask, kept until the next run; its last layer is the run\'s prediction', () => {
  const engine = realEngine();
  assert.throws(() => engine.logitLens!(), /no run yet/);
  const run = engine.run(folder, TEXT, undefined, undefined, 'f64');
  const lens = engine.logitLens!();
  assert.equal(lens.length, run.model.layers);
  assert.equal(lens[0].length, run.ids.length);
  assert.equal(lens[run.model.layers - 1][run.ids.length - 1][0].id, run.next[0].id);
  assert.equal(engine.logitLens!(), lens, 'the same answer, not a pass again');
  engine.run(folder, 'A dog');
  assert.notEqual(engine.logitLens!(), lens);
  engine.close();
});

test('the logit lens is kept across a run of the same tokens (the norms switch\'s, an ablation\'s), not across other tokens', () => {
  const engine = realEngine();
  engine.run(folder, TEXT, undefined, undefined, 'f32', { generate: 2 });
  const lens = engine.logitLens!();
  engine.run(folder, TEXT, undefined, undefined, 'f32', { norms: true, generate: 2 });
  assert.equal(engine.logitLens!(), lens, 'the norms\' run of the same tokens keeps it');
  engine.run(folder, TEXT, undefined, undefined, 'f32', { generate: 2, ablate: { heads: [{ layer: 0, head: 0 }], labels: ['1.1'], mode: 'zero' } });
  assert.equal(engine.logitLens!(), lens, 'the run\'s own lens: an ablation does not change it');
  engine.run(folder, TEXT, undefined, undefined, 'f32', { norms: true });
  const fewer = engine.logitLens!();
  assert.notEqual(fewer, lens, 'without the generated tokens: other positions');
  assert.equal(fewer[0].length, lens[0].length - 2);
  engine.run(folder, TEXT, undefined, undefined, 'f64', { norms: true });
  assert.notEqual(engine.logitLens!(), fewer, 'another precision computes its own');
  engine.close();
});

test('patching scores every head; a target of two tokens is one line naming it', () => {
  const engine = realEngine();
  const run = engine.run(folder, TEXT, undefined, undefined, 'f64', { target: String(engine.run(folder, TEXT).next[0].id), contrast: '0', patchFrom: 'The mat sat on the cat. The cat' });
  const patching = run.analyses?.patching;
  assert.ok(patching);
  assert.equal(patching.length, run.model.layers);
  assert.ok(patching.flat().every(Number.isFinite));
  assert.throws(() => engine.run(folder, TEXT, undefined, undefined, 'f32', { target: ' cat sat on' }), /^ModelError: the target token " cat sat on" is \d+ tokens/);
  engine.close();
});
