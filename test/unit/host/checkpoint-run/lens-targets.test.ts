// Where "Save this head as a spec" may write (src/host/checkpoint-run/lens-files.ts), over a seeded
// family of folders: at the spec's name and at its tensor file's name, nothing, a file of the
// user's, a spec of the user's own that names the lens's tensor file, a hard link or a symbolic link
// to the model's config.json or weights, a link to nowhere, a folder, or an earlier lens's file; the folder chosen being a plain one, the model's, a folder
// inside it or a link to it; the name typed with a doubled .attn.json. Whatever the case: the
// model's files keep their bytes, nothing that was there is changed unless it was an earlier lens's
// own pair (or its spec alone, the tensor file deleted), no temporary file is left, and a save that went through reads back as a clean spec.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lensSpecPath, lensTensorPath, writeLensFiles } from '../../../../src/host/checkpoint-run/lens-files.js';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { fakeHeadLens } from '../../../support/head-lens.js';
import { between, seeded } from '../../../support/random.js';
import { tempDir } from '../../../support/temp-dir.js';

const SLOTS = ['none', 'theirs', 'foreign', 'hard-config', 'hard-weights', 'link-config', 'link-weights', 'dangling', 'folder', 'lens'] as const;
type Slot = (typeof SLOTS)[number];
const FOLDERS = ['plain', 'model', 'inside-model', 'link-to-model'] as const;

/** Every path under `dir` with what it is: a file's inode and bytes, a link's target, a folder. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
      else if (st.isDirectory()) { out.set(p, 'folder'); walk(p); } else out.set(p, `file ${st.ino} ${readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir);
  return out;
}

/** Specs of the user's own that name head.safetensors as a lens's spec does, but are not one. */
const FOREIGN = [
  { embeddings: { file: 'head.safetensors' } },
  { embeddings: { file: 'head.safetensors', tensor: 'embeddings' }, heads: [{ name: 'mine', wq: { file: 'head.safetensors', tensor: 'wq' }, wk: { file: 'head.safetensors', tensor: 'wk' }, wv: { file: 'head.safetensors', tensor: 'wv' } }] },
  { embeddings: { file: 'head.safetensors', tensor: 'embeddings' }, heads: [{ name: 'layer 1 head 1', wq: { file: 'other.safetensors', tensor: 'wq' }, wk: { file: 'head.safetensors', tensor: 'wk' }, wv: { file: 'head.safetensors', tensor: 'wv' } }] },
  { embeddings: { file: 'head.safetensors', tensor: 'embeddings' }, heads: [1, 2].map((h) => ({ name: `layer 1 head ${h}`, wq: { file: 'head.safetensors', tensor: 'wq' }, wk: { file: 'head.safetensors', tensor: 'wk' }, wv: { file: 'head.safetensors', tensor: 'wv' } })) },
];

function place(slot: Slot, path: string, model: string, rand: () => number): void {
  switch (slot) {
    case 'none': case 'lens': return;
    case 'theirs': writeFileSync(path, `the user's own ${path}`); return;
    case 'foreign': writeFileSync(path, JSON.stringify(FOREIGN[between(rand, 0, FOREIGN.length - 1)])); return;
    case 'hard-config': linkSync(join(model, 'config.json'), path); return;
    case 'hard-weights': linkSync(join(model, 'model.safetensors'), path); return;
    case 'link-config': symlinkSync(join(model, 'config.json'), path); return;
    case 'link-weights': symlinkSync(join(model, 'model.safetensors'), path); return;
    case 'dangling': symlinkSync(join(model, 'nowhere'), path); return;
    case 'folder': mkdirSync(path); return;
  }
}

test('a lens save never changes a file it did not write, never the model\'s, and never writes through a link (seeded family)', () => {
  const rand = seeded(20261131);
  let saved = 0, refused = 0;
  for (let c = 0; c < 150; c++) {
    const root = tempDir('attn-lens-targets-');
    const model = join(root, 'model');
    mkdirSync(join(model, 'sub'), { recursive: true });
    writeFileSync(join(model, 'config.json'), '{"model_type":"gpt2"}');
    writeFileSync(join(model, 'model.safetensors'), 'weights');
    const folderKind = FOLDERS[rand() < 0.7 ? 0 : between(rand, 1, FOLDERS.length - 1)];
    let folder = join(root, 'out');
    if (folderKind === 'plain') mkdirSync(folder);
    else if (folderKind === 'model') folder = model;
    else if (folderKind === 'inside-model') folder = join(model, 'sub');
    else symlinkSync(model, folder);
    const chosen = join(folder, rand() < 0.3 ? 'head.attn.json.attn.json' : 'head.attn.json');
    const specPath = lensSpecPath(chosen), tensorPath = lensTensorPath(specPath);
    const specSlot: Slot = rand() < 0.4 ? (rand() < 0.5 ? 'none' : 'lens') : SLOTS[between(rand, 0, SLOTS.length - 1)];
    const tensorSlot = rand() < 0.5 ? specSlot : SLOTS[between(rand, 0, SLOTS.length - 1)];
    const lens = fakeHeadLens({ n: 3, dModel: 4, headDim: 2, rotary: rand() < 0.5, biases: true, seed: c + 1 });
    const options = { model: 'tiny', modelFolder: model, query: 0 };
    const inModel = folderKind !== 'plain';
    if (!inModel && (specSlot === 'lens' || tensorSlot === 'lens')) {
      writeLensFiles(specPath, lens, { ...options, query: 2 });
      if (specSlot !== 'lens') rmSync(specPath);
      if (tensorSlot !== 'lens') rmSync(tensorPath);
    }
    place(specSlot, specPath, model, rand);
    place(tensorSlot, tensorPath, model, rand);
    const what = `case ${c}: ${folderKind} folder, ${relative(root, chosen)}, spec ${specSlot}, tensor file ${tensorSlot}`;
    const before = snapshot(root);
    const modelBefore = snapshot(model);
    // An earlier lens's spec may be saved over with or without its tensor file (the user may have deleted it).
    const mayWrite = !inModel && ((specSlot === 'none' && tensorSlot === 'none') || (specSlot === 'lens' && (tensorSlot === 'lens' || tensorSlot === 'none')));
    let error: unknown;
    try { writeLensFiles(specPath, lens, options); } catch (e) { error = e; }
    const after = snapshot(root);
    assert.deepEqual(snapshot(model), modelBefore, `${what}: the model's folder is as it was`);
    for (const [p, v] of before) if (p !== specPath && p !== tensorPath) assert.equal(after.get(p), v, `${what}: ${p} is as it was`);
    assert.deepEqual([...after.keys()].filter((p) => p.endsWith('.part')), [], `${what}: no temporary file left`);
    if (!mayWrite) {
      refused++;
      assert.ok(error instanceof Error && /never replaced|symbolic link|model's own folder/.test(error.message), `${what}: refused, got ${String(error)}`);
      assert.deepEqual(after, before, `${what}: nothing written`);
      continue;
    }
    saved++;
    assert.equal(error, undefined, `${what}: ${String(error)}`);
    assert.ok(lstatSync(specPath).isFile() && lstatSync(tensorPath).isFile(), what);
    const a = analyze(readFileSync(specPath, 'utf8'), { files: folderFiles(folder) });
    assert.deepEqual(a.problems.filter((p) => p.severity === 'error').map((p) => p.message), [], what);
  }
  assert.ok(saved >= 10 && refused >= 50, `the family reaches both outcomes (${saved} saved, ${refused} refused)`);
});
