// Saving a real head as a spec (src/host/checkpoint-run/lens-files.ts): the spec and its tensor file are
// written beside each other and read back as a spec whose compute gives the head's weights; a target
// in the model's own folder is refused and nothing is written there; a tensor file that is not an
// earlier lens's own is never replaced, and neither file is written through a symbolic link.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { freshLensPath, LENS_SAVE_FILTERS, lensSpecPath, lensSpecText, lensStem, lensTargetProblem, lensTensorPath, writeLensFiles } from '../../../../src/host/checkpoint-run/lens-files.js';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { fakeHeadLens } from '../../../support/head-lens.js';

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

test('a tensor file that is not an earlier lens\'s own is never replaced; an earlier lens is', () => {
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  const options = { model: 'tiny', modelFolder, query: 0 };
  const dir = mkdtempSync(join(root, 'replace-'));
  // A safetensors file of the user's own, with no spec beside it.
  const alone = join(dir, 'weights.attn.json');
  const theirs = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [1], data: new Uint8Array(4) }]);
  writeFileSync(lensTensorPath(alone), theirs);
  assert.match(lensTargetProblem(alone, modelFolder) ?? '', /weights\.safetensors is there and is not an earlier lens's own tensor file/);
  assert.throws(() => writeLensFiles(alone, lens, options), /never replaced/);
  assert.deepEqual(readFileSync(lensTensorPath(alone)), Buffer.from(theirs));
  assert.equal(existsSync(alone), false);
  // A spec beside it does not make it a lens's: its metadata does not say Attention Lens wrote it.
  writeFileSync(alone, '{}\n');
  assert.match(lensTargetProblem(alone, modelFolder) ?? '', /not an earlier lens's own/);
  writeFileSync(lensTensorPath(alone), 'not a safetensors file');
  assert.match(lensTargetProblem(alone, modelFolder) ?? '', /not an earlier lens's own/);
  // An earlier lens, spec and tensor file, is replaced by a save on the same name.
  const earlier = join(dir, 'tiny-layer1-head1.attn.json');
  writeLensFiles(earlier, lens, options);
  assert.equal(lensTargetProblem(earlier, modelFolder), undefined);
  const first = JSON.parse(readFileSync(earlier, 'utf8')) as { open: { token: string } };
  writeLensFiles(earlier, lens, { ...options, query: 1 });
  const again = JSON.parse(readFileSync(earlier, 'utf8')) as { open: { token: string } };
  assert.notEqual(again.open.token, first.open.token, 'written again, on the other query');
});

test('an earlier lens whose tensor file the user deleted is saved over; a spec of the user\'s own naming that file is not', () => {
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  const options = { model: 'tiny', modelFolder, query: 0 };
  const dir = mkdtempSync(join(root, 'deleted-'));
  const earlier = join(dir, 'tiny-layer1-head1.attn.json');
  writeLensFiles(earlier, lens, options);
  rmSync(lensTensorPath(earlier));
  assert.equal(lensTargetProblem(earlier, modelFolder), undefined);
  writeLensFiles(earlier, lens, { ...options, query: 1 });
  assert.ok(existsSync(lensTensorPath(earlier)), 'the tensor file is written again');
  const mine = join(dir, 'mine.attn.json');
  const text = JSON.stringify({ title: 'mine', embeddings: { file: 'mine.safetensors', tensor: 'x' }, heads: [{ wq: [[1]] }] });
  writeFileSync(mine, text);
  assert.match(lensTargetProblem(mine, modelFolder) ?? '', /mine\.attn\.json is there and is not an earlier lens's own spec/);
  assert.throws(() => writeLensFiles(mine, lens, options), /never replaced/);
  assert.equal(readFileSync(mine, 'utf8'), text);
  assert.equal(existsSync(lensTensorPath(mine)), false);
});

test('neither file is written through a symbolic link', () => {
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  const options = { model: 'tiny', modelFolder, query: 0 };
  const dir = mkdtempSync(join(root, 'links-'));
  const elsewhere = join(dir, 'elsewhere.txt');
  writeFileSync(elsewhere, 'keep me');
  const linkedTensor = join(dir, 'a.attn.json');
  symlinkSync(elsewhere, lensTensorPath(linkedTensor));
  assert.match(lensTargetProblem(linkedTensor, modelFolder) ?? '', /a\.safetensors is a symbolic link/);
  assert.throws(() => writeLensFiles(linkedTensor, lens, options), /symbolic link/);
  const linkedSpec = join(dir, 'b.attn.json');
  symlinkSync(elsewhere, linkedSpec);
  assert.match(lensTargetProblem(linkedSpec, modelFolder) ?? '', /b\.attn\.json is a symbolic link/);
  assert.throws(() => writeLensFiles(linkedSpec, lens, options), /symbolic link/);
  // A link to nowhere is refused too: writing through it would make a file where it points.
  const dangling = join(dir, 'c.attn.json');
  symlinkSync(join(dir, 'nowhere.safetensors'), lensTensorPath(dangling));
  assert.match(lensTargetProblem(dangling, modelFolder) ?? '', /symbolic link/);
  assert.equal(readFileSync(elsewhere, 'utf8'), 'keep me');
  assert.equal(existsSync(join(dir, 'nowhere.safetensors')), false);
  assert.ok(lstatSync(lensTensorPath(linkedTensor)).isSymbolicLink());
});

test('a name the dialog doubled (x.attn.json.attn.json) does not replace the user\'s own x.attn.json beside it', () => {
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  const dir = mkdtempSync(join(root, 'doubled-'));
  const mine = join(dir, 'notes.attn.json');
  writeFileSync(mine, '{ "title": "my own spec" }\n');
  const target = lensSpecPath(join(dir, 'notes.attn.json.attn.json'));
  assert.equal(target, mine);
  assert.match(lensTargetProblem(target, modelFolder) ?? '', /notes\.attn\.json is there and is not an earlier lens's own spec: it is never replaced/);
  assert.throws(() => writeLensFiles(target, lens, { model: 'tiny', modelFolder, query: 0 }), /never replaced/);
  assert.equal(readFileSync(mine, 'utf8'), '{ "title": "my own spec" }\n');
  assert.deepEqual(readdirSync(dir), ['notes.attn.json']);
});

test('a spec name hard-linked to the model\'s config.json is never written into', () => {
  const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: false, biases: false });
  const model = mkdtempSync(join(root, 'model-'));
  writeFileSync(join(model, 'config.json'), '{"model_type":"gpt2"}');
  const dir = mkdtempSync(join(root, 'hard-'));
  linkSync(join(model, 'config.json'), join(dir, 'head.attn.json'));
  assert.throws(() => writeLensFiles(join(dir, 'head.attn.json'), lens, { model: 'tiny', modelFolder: model, query: 0 }), /never replaced/);
  assert.equal(readFileSync(join(model, 'config.json'), 'utf8'), '{"model_type":"gpt2"}');
});

test('a head of a run longer than a spec holds is written as the window ending at the query, said in its title and description', () => {
  const n = 2100;
  const lens = fakeHeadLens({ n, dModel: 5, headDim: 2, rotary: false, biases: true, tokens: Array.from({ length: n }, (_, i) => (i % 2 ? ' the' : ` w${i}`)) });
  const dir = mkdtempSync(join(root, 'long-'));
  const spec = join(dir, 'long.attn.json');
  writeLensFiles(spec, lens, { model: 'tiny', modelFolder, query: n - 1 });
  const text = readFileSync(spec, 'utf8');
  const json = JSON.parse(text) as { title: string; description: string; inputs: { tokens: string[] }[]; open: { token: string } };
  assert.equal(json.title, 'tiny, layer 2 head 3, tokens 53–2,100 of 2,100');
  assert.match(json.description, /^The run has 2,100 tokens and a spec holds at most 2,048 tokens, so this lens holds tokens 53–2,100 of 2,100, the 2,048 ending at the query \(token 2,100\): [^.]*\(the run's query put 0\.\d{3} of its weight there\)\. tiny, layer 2 head 3: /);
  assert.equal(json.inputs[0].tokens.length, 2048);
  assert.deepEqual(json.inputs[0].tokens.slice(0, 2), [' w52', ' the#54'], 'a repeated word is numbered by its place in the run');
  assert.equal(json.open.token, ' the#2100');
  const a = analyze(text, { files: folderFiles(dir) });
  assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), []);
  const w = a.result!.inputs[0].heads[0].weights.data;
  // Each query's weights: the run's over the window's keys, renormalised (the softmax of its scores over them).
  for (const i of [0, 1, 700, 2047]) {
    const row = (52 + i) * n + 52;
    let sum = 0;
    for (let j = 0; j < 2048; j++) sum += lens.weights[row + j];
    for (let j = 0; j < 2048; j++) assert.ok(Math.abs(w[i * 2048 + j] - lens.weights[row + j] / sum) < 1e-5, `${i}, ${j}`);
  }
});

test('a sliding window\'s band is written a row a line, and a long run\'s band is cut to what a spec reads quickly', () => {
  const n = 1300;
  const lens = { ...fakeHeadLens({ n, dModel: 4, headDim: 2, rotary: true, biases: false }), window: 100 };
  const dir = mkdtempSync(join(root, 'band-'));
  const spec = join(dir, 'band.attn.json');
  writeLensFiles(spec, lens, { model: 'tiny', modelFolder, query: 600 });
  const text = readFileSync(spec, 'utf8');
  const json = JSON.parse(text) as { title: string; description: string; inputs: { mask: number[][] }[] };
  assert.equal(json.title, 'tiny, layer 2 head 3, tokens 1–1,024 of 1,300', 'the first 1,024 tokens hold query 601');
  assert.match(json.description, /band of 100 tokens\) is kept within 1,048,576 numbers/);
  assert.equal(json.inputs[0].mask.length, 1024);
  const rowLines = text.split('\n').filter((l) => /^\s*\[[01](,[01])*\],?$/.test(l));
  assert.equal(rowLines.length, 1024, 'one line a row of the band');
  assert.ok(text.length < 2.2e6, `${text.length} characters`);
});

test('the spec text keeps a token that looks like the writer\'s row mark as it is', () => {
  const spec = { words: ['\u0000row-0', '"\\u0000', 'x'], mask: [[1, 0], [0, 1]], empty: [] };
  const text = lensSpecText(spec);
  assert.deepEqual(JSON.parse(text), spec);
  assert.match(text, /\n {4}\[1,0\],\n {4}\[0,1\]\n/);
});
