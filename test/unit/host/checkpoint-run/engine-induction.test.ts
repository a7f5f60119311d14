// The real engine on the hand-built induction GPT-2 (examples/models/induction-gpt2), asked what
// examples/induction-attribution.attn.json asks: the induction head (layer 2 head 1) holds the whole
// logit difference " sat" − " mat"; patching each of the previous-token and induction heads back brings
// the whole difference back, the other heads nothing; four greedy tokens are " sat on the mat". The
// figures its description gives are these.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { realEngine } from '../../../../src/host/checkpoint-run/engine.js';
import { readSpec } from '../../../../src/core/spec/read.js';
import { exampleText } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';

const folder = join(ROOT, 'examples', 'models', 'induction-gpt2');
const spec = readSpec(exampleText('induction-attribution.attn.json')).model!;

test('the example\'s attribution and patching: the induction head makes " sat", and both heads of the circuit bring it back', () => {
  assert.ok(spec, 'the example reads as a model spec');
  const engine = realEngine();
  const { target, contrast, patchFrom } = spec;
  const run = engine.run(folder, spec.text, undefined, undefined, 'f64', { target, contrast, patchFrom });
  const a = run.analyses!.attribution!;
  assert.ok(Math.abs(a.heads[1][0] - 7.79) < 0.005, `layer 2 head 1: ${a.heads[1][0]}`);
  assert.ok(Math.abs(a.total - a.heads[1][0]) < 1e-9, 'every other part is 0');
  assert.match(spec.description ?? '', /7\.79/);
  const p = run.analyses!.patching!;
  assert.deepEqual(p.map((row) => row.map((v) => Math.round(v * 1000) / 1000)), [[1, 0], [1, 0]]);
  engine.close();
});

test('four greedy tokens after the example\'s text are " sat on the mat"', () => {
  const engine = realEngine();
  const run = engine.run(folder, spec.text, undefined, undefined, 'f32', { generate: 4 });
  assert.equal(run.analyses!.generated!.map((g) => g.token).join(''), ' sat on the mat');
  engine.close();
});
