// The real engine (src/host/checkpoint-run/engine.ts) on a tiny GPT-2 folder the test writes: a run gives
// every layer's attention and five next tokens; the lens on a head of that run, written as a spec
// (lensSpec) and computed by the core, gives the run's own attention of that head to 1e-5; a folder
// without a config is one line naming it. A run stopped between layers throws RunStopped and leaves
// the model loaded; the next run over a text that begins the same reuses that beginning. An encoder
// (a tiny RoBERTa) guesses at its <mask>, reuses nothing, and its lens is a spec without a mask.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realEngine } from '../../../../src/host/checkpoint-run/engine.js';
import { lensSpec } from '../../../../src/core/checkpoint-spec/lens-spec.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';
import { writeCheckpoint } from '../../../support/encoder-reference.js';
import { encoderTokenizer } from '../../../support/encoder-tokenizer.js';
import { ROBERTA_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const root = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(root, { recursive: true, force: true }));
const folder = writeTinyGpt2(join(root, 'tiny-gpt2'));

test('a run of a real tiny checkpoint, and the lens on each of its heads computes the run\'s attention to 1e-5', () => {
  const engine = realEngine();
  const run = engine.run(folder, 'The cat sat on the mat. The cat');
  const n = run.ids.length;
  assert.ok(n > 3);
  assert.equal(run.attention.length, 2);
  assert.equal(run.next.length, 5);
  for (const [layer, head] of [[0, 0], [1, 3]]) {
    const lens = engine.lens(layer, head);
    const { spec, tensors } = lensSpec(lens, { tensorFile: `l${layer}h${head}.safetensors` });
    writeFileSync(join(root, `l${layer}h${head}.safetensors`), writeSafetensors(tensors));
    const a = analyze(JSON.stringify(spec), { files: folderFiles(root) });
    const computed = a.result!.inputs[0].heads[0].weights.data;
    const own = run.attention[layer].subarray(head * n * n, (head + 1) * n * n);
    let worst = 0;
    for (let i = 0; i < n * n; i++) worst = Math.max(worst, Math.abs(computed[i] - own[i]));
    assert.ok(worst < 1e-5, `layer ${layer} head ${head}: largest difference ${worst}`);
  }
  // A second run of the same folder reuses the loaded model (no load time).
  assert.equal(engine.run(folder, 'The cat').timings.loadMs, 0);
  engine.close();
});

test('a run stopped between layers leaves the model loaded; a text that begins the same reuses its positions', () => {
  const engine = realEngine();
  let asked = 0;
  assert.throws(() => engine.run(folder, 'The cat sat on the mat.', undefined, () => ++asked > 1), (e: Error) => e.name === 'RunStopped');
  assert.equal(asked, 2); // before the pass, then after its first layer
  const first = engine.run(folder, 'The cat sat on the mat.');
  assert.equal(first.timings.loadMs, 0);
  assert.equal(first.reused, 0);
  const next = engine.run(folder, 'The cat sat on the mat. The');
  assert.equal(next.timings.loadMs, 0);
  assert.equal(next.reused, first.ids.length);
  engine.close();
});

test('a folder that cannot run is one line naming the file', () => {
  const broken = writeTinyGpt2(join(root, 'broken'));
  unlinkSync(join(broken, 'config.json'));
  assert.throws(() => realEngine().run(broken, 'The cat'), (e: Error) => /config\.json/.test(e.message) && !e.message.includes('\n'));
});

test('the editor\'s engine on an encoder (a tiny RoBERTa): the guess at <mask>, a full matrix, no reuse, and a lens with no mask', () => {
  const tokenizer = encoderTokenizer('roberta');
  const dir = writeCheckpoint(join(root, 'tiny-roberta'), tinyCheckpoint({ ...ROBERTA_CONFIG, vocab_size: tokenizer.vocabSize }, 4));
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer.text);
  const engine = realEngine();
  const first = engine.run(dir, 'the cat <mask> on the mat');
  const n = first.ids.length;
  assert.deepEqual(first.next, []);
  assert.deepEqual(first.masked!.map((g) => g.position), [first.pieces.indexOf('<mask>')]);
  assert.equal(first.masked![0].guesses.length, 5);
  let above = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) above += first.attention[0][i * n + j];
  assert.ok(above > 0.1 * n, 'weight above the diagonal');
  // The same beginning, another end: nothing is reused, and the first row changes too.
  const edited = engine.run(dir, 'the cat <mask> on the hat');
  assert.equal(edited.reused, 0);
  assert.notDeepEqual(edited.attention[0].subarray(0, n), first.attention[0].subarray(0, n));
  const lens = engine.lens(1, 2);
  const { spec, tensors } = lensSpec(lens, { tensorFile: 'roberta-l1h2.safetensors' });
  assert.equal(spec.mask, 'none');
  writeFileSync(join(root, 'roberta-l1h2.safetensors'), writeSafetensors(tensors));
  const computed = analyze(JSON.stringify(spec), { files: folderFiles(root) }).result!.inputs[0].heads[0].weights.data;
  const m = edited.ids.length, own = edited.attention[1].subarray(2 * m * m, 3 * m * m);
  let worst = 0;
  for (let i = 0; i < m * m; i++) worst = Math.max(worst, Math.abs(computed[i] - own[i]));
  assert.ok(worst < 1e-5, `largest difference ${worst}`);
  engine.close();
});

test('the precision asked for: float32 unless said; a change keeps the model loaded and computes afresh, then reuses in its own', () => {
  const engine = realEngine();
  const f32 = engine.run(folder, 'The cat sat on the mat.');
  assert.equal(f32.model.precision, 'f32');
  const f64 = engine.run(folder, 'The cat sat on the mat. The', undefined, undefined, 'f64');
  assert.deepEqual([f64.model.precision, f64.timings.loadMs, f64.reused], ['f64', 0, 0]);
  const again = engine.run(folder, 'The cat sat on the mat. The cat', undefined, undefined, 'f64');
  assert.equal(again.reused, f64.ids.length);
  // The two forms agree to float32's precision (the float64 run's first positions are the float32 run's text).
  const a = f32.attention[1];
  let worst = 0;
  const n32 = f32.ids.length, n64 = f64.ids.length, heads = f32.model.heads;
  for (let h = 0; h < heads; h++) for (let i = 0; i < n32; i++) for (let j = 0; j <= i; j++) worst = Math.max(worst, Math.abs(a[(h * n32 + i) * n32 + j] - f64.attention[1][(h * n64 + i) * n64 + j]));
  assert.ok(worst < 1e-5, `${worst}`);
  engine.close();
});
