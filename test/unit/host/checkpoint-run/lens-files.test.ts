// Saving a real head as a spec (src/host/checkpoint-run/lens-files.ts): the spec and its tensor file are
// written beside each other and read back as a spec whose compute gives the head's weights; a target
// in the model's own folder is refused and nothing is written there; a file beside the spec that its
// tensor file would replace is refused unless a lens wrote it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { freshLensPath, LENS_SAVE_FILTERS, lensSpecPath, lensStem, lensTargetProblem, lensTensorPath, writeLensFiles } from '../../../../src/host/checkpoint-run/lens-files.js';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { fakeHeadLens } from '../../../support/head-lens.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';

const root = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(root, { recursive: true, force: true }));
const modelFolder = join(root, 'models', 'tiny');
mkdirSync(modelFolder, { recursive: true });

test('the spec and its tensor file are written beside each other and compute the head\'s weights', () => {
  const lens = fakeHeadLens({ n: 5, dModel: 6, headDim: 2, rotary: false, biases: true });
  const spec = freshLensPath(root, lensStem('models/tiny', 1, 2));
  assert.equal(spec, join(root, 'tiny-layer2-head3.attn.json'));
  writeLensFiles(spec, lens, { model: 'models/tiny', modelFolder, query: 4 });
  assert.ok(existsSync(lensTensorPath(spec)));
  const a = analyze(readFileSync(spec, 'utf8'), { files: folderFiles(root) });
  const w = a.result!.inputs[0].heads[0].weights.data;
  for (let i = 0; i < w.length; i++) assert.ok(Math.abs(w[i] - lens.weights[i]) < 1e-5);
  // A second save does not replace the first.
  assert.equal(freshLensPath(root, lensStem('models/tiny', 1, 2)), join(root, 'tiny-layer2-head3-2.attn.json'));
});

test('a target in the model\'s own folder is refused, and nothing is written there', () => {
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  const inside = join(modelFolder, 'head.attn.json');
  assert.match(lensTargetProblem(inside, modelFolder) ?? '', /model's own folder/);
  assert.throws(() => writeLensFiles(inside, lens, { model: 'tiny', modelFolder, query: 0 }), /model's own folder/);
  assert.deepEqual(readdirSync(modelFolder), []);
  assert.match(lensTargetProblem(join(root, 'head.json'), modelFolder) ?? '', /\.attn\.json/);
});

test('Save head as spec… in code-server\'s save dialog keeps the proposed name (it wrote x.attn.json.attn.json)', () => {
  // VS Code's own dialog appends the filter's first extension when the name's last extension
  // (extname, "json" for x.attn.json) is none of the filter's.
  const proposed = freshLensPath(root, lensStem('models/induction-gpt2', 1, 0));
  const extensions = Object.values(LENS_SAVE_FILTERS).flat();
  assert.ok(extensions.includes(extname(proposed).slice(1)), `${extname(proposed)} is one of ${extensions.join(', ')}`);
  assert.equal(extensions[0], 'attn.json', 'a name typed without extension still gets .attn.json');
  // A doubled suffix, from a dialog that appended it anyway, is written once: spec and tensor file.
  const doubled = join(root, 'induction-gpt2-layer2-head1.attn.json.attn.json');
  assert.equal(lensSpecPath(doubled), join(root, 'induction-gpt2-layer2-head1.attn.json'));
  assert.equal(lensTensorPath(lensSpecPath(doubled)), join(root, 'induction-gpt2-layer2-head1.safetensors'));
  assert.equal(lensSpecPath(join(root, 'mine.ATTN.json')), join(root, 'mine.ATTN.json'));
  assert.equal(lensSpecPath(join(root, 'notes.json')), join(root, 'notes.json'));
});

test('a file where the tensor file goes is never replaced unless a lens saved it', () => {
  const dir = join(root, 'beside');
  mkdirSync(dir);
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  // Before: the dialog asked about x.attn.json only, and x.safetensors (here the user's own weights,
  // or any file of that name) was replaced without a word.
  const weights = join(dir, 'gpt2.safetensors'), text = join(dir, 'notes.safetensors');
  writeFileSync(weights, writeSafetensors([{ name: 'wte.weight', dtype: 'F32', shape: [2, 2], data: new Float32Array([1, 2, 3, 4]) }], { format: 'pt' }));
  writeFileSync(text, 'not tensors at all');
  for (const [spec, file] of [[join(dir, 'gpt2.attn.json'), weights], [join(dir, 'notes.attn.json'), text]]) {
    const before = readFileSync(file);
    assert.match(lensTargetProblem(spec, modelFolder) ?? '', /is beside it and is not a head a lens saved: the spec's tensor file would replace it/);
    assert.throws(() => writeLensFiles(spec, lens, { model: 'tiny', modelFolder, query: 0 }), /would replace it/);
    assert.deepEqual(readFileSync(file), before);
    assert.equal(existsSync(spec), false);
  }
  // A lens's own earlier head is replaced, as the dialog confirmed for its spec.
  const again = join(dir, 'head.attn.json');
  writeLensFiles(again, lens, { model: 'tiny', modelFolder, query: 0 });
  assert.equal(lensTargetProblem(again, modelFolder), undefined);
  writeLensFiles(again, fakeHeadLens({ n: 4, dModel: 4, headDim: 2, rotary: false, biases: false }), { model: 'tiny', modelFolder, query: 1 });
});
