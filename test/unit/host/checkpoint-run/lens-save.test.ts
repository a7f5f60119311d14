// A model run's head saved as a spec, or opened in the lens (src/host/checkpoint-run/lens-save.ts), in
// the vscode stand-in: a save writes the spec and its tensor file where the dialog says (proposed
// beside the run's spec) and opens the spec's editor and views; an open writes them in the
// extension's storage; a cancelled dialog writes nothing; a target in the model's folder, or a head
// the run cannot cut, is one error message and nothing written.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { saveLens, type LensMessage, type LensSaving } from '../../../../src/host/checkpoint-run/lens-save.js';
import type { Dialogs } from '../../../../src/host/dialogs.js';
import { asVscode, standIn, Uri } from '../../../support/vscode/index.js';
import { fakeHeadLens } from '../../../support/head-lens.js';
import { tempDir } from '../../../support/temp-dir.js';

beforeEach(() => standIn.reset());

function setup(answer: (proposed: Uri | undefined) => Uri | undefined, fail?: Error) {
  const dir = tempDir('attn-lens-save-');
  const folder = join(dir, 'models', 'tiny');
  mkdirSync(folder, { recursive: true });
  const shown: string[] = [];
  const asked: { defaultUri?: Uri; title?: string }[] = [];
  const dialogs: Dialogs = {
    save: (options) => {
      const o = options as unknown as { defaultUri?: Uri; title?: string };
      asked.push(o);
      return Promise.resolve(asVscode<vscode.Uri | undefined>(answer(o.defaultUri)));
    },
  };
  const saving: LensSaving = {
    lens: (layer, head) => (fail ? Promise.reject(fail) : Promise.resolve({ ...fakeHeadLens({ n: 4, dModel: 6, headDim: 2, rotary: false, biases: true }), layer, head })),
    dialogs,
    globalStorageUri: asVscode<vscode.Uri>(Uri.file(join(dir, 'storage'))),
    showSpec: (uri) => { shown.push(uri.fsPath); return Promise.resolve(); },
  };
  const run = { spec: asVscode<vscode.Uri>(Uri.file(join(dir, 'run.attn.json'))), model: 'models/tiny', folder };
  return { dir, folder, shown, asked, saving, run };
}

const head = (save: boolean): LensMessage => ({ type: 'lens', layer: 1, head: 2, token: 3, save });
const errors = () => standIn.windows.state.messages.filter((m) => m.severity === 'error').map((m) => m.message);

test('a save writes the spec and its tensor file where the dialog says, proposed beside the run\'s spec, and opens them', async () => {
  const { dir, shown, asked, saving, run } = setup((proposed) => proposed);
  await saveLens(saving, run, head(true));
  const spec = join(dir, 'tiny-layer2-head3.attn.json');
  assert.equal(asked[0].defaultUri?.fsPath, spec);
  assert.equal(asked[0].title, 'Save models/tiny layer 2 head 3 as a spec');
  assert.ok(existsSync(spec) && existsSync(join(dir, 'tiny-layer2-head3.safetensors')));
  assert.deepEqual(shown, [spec]);
  assert.deepEqual(standIn.windows.state.editors.map((e) => e.document.uri.fsPath), [spec], 'the spec\'s editor opened');
  assert.deepEqual(errors(), []);
});

test('an open writes in the extension\'s storage and asks nothing', async () => {
  const { dir, shown, asked, saving, run } = setup(() => { throw new Error('no dialog for an open'); });
  await saveLens(saving, run, head(false));
  const spec = join(dir, 'storage', 'lens', 'tiny-layer2-head3.attn.json');
  assert.equal(asked.length, 0);
  assert.ok(existsSync(spec));
  assert.deepEqual(shown, [spec]);
  assert.deepEqual(standIn.windows.state.editors, [], 'no editor: the views only');
  // Opened again (a newer run, or the same click twice): its lens replaced, no copies piling up.
  await saveLens(saving, run, head(false));
  assert.deepEqual(shown, [spec, spec]);
  assert.deepEqual(readdirSync(join(dir, 'storage', 'lens')).sort(), ['tiny-layer2-head3.attn.json', 'tiny-layer2-head3.safetensors']);
});

test('a cancelled dialog writes nothing; a target in the model\'s folder or a head not cut is one error and nothing written', async () => {
  const cancelled = setup(() => undefined);
  await saveLens(cancelled.saving, cancelled.run, head(true));
  assert.deepEqual(readdirSync(cancelled.dir).sort(), ['models']);
  assert.deepEqual(cancelled.shown, []);
  assert.deepEqual(errors(), []);

  const inside = setup(() => undefined);
  inside.saving.dialogs = { save: () => Promise.resolve(asVscode<vscode.Uri>(Uri.file(join(inside.folder, 'head.attn.json')))) };
  await saveLens(inside.saving, inside.run, head(true));
  assert.deepEqual(readdirSync(inside.folder), []);
  assert.deepEqual(inside.shown, []);
  assert.match(errors()[0] ?? '', /^Attention Lens: this is the model's own folder/);

  standIn.reset();
  const failing = setup((proposed) => proposed, new Error('the model run stopped (exit code 1)'));
  await saveLens(failing.saving, failing.run, head(true));
  assert.deepEqual(errors(), ['Attention Lens: the lens on layer 2 head 3: the model run stopped (exit code 1)']);
  assert.deepEqual(readdirSync(failing.dir).sort(), ['models']);
});

test('a head of a run longer than a spec holds opens as the window ending at the query, its title saying which', async () => {
  const { dir, shown, saving, run } = setup((proposed) => proposed);
  saving.lens = (layer, head) => Promise.resolve({ ...fakeHeadLens({ n: 2100, dModel: 4, headDim: 2, rotary: true, biases: false }), layer, head });
  await saveLens(saving, run, { type: 'lens', layer: 1, head: 2, token: 2099, save: false });
  assert.deepEqual(errors(), []);
  assert.equal(shown.length, 1);
  assert.ok(shown[0].startsWith(join(dir, 'storage', 'lens')));
  const spec = JSON.parse(readFileSync(shown[0], 'utf8')) as { title: string; inputs: { tokens: string[] }[] };
  assert.equal(spec.title, 'models/tiny, layer 2 head 3, tokens 53–2,100 of 2,100');
  assert.equal(spec.inputs[0].tokens.length, 2048);
});

test('a run too long for the worker to cut a head out of in memory says so and what to do, not the allocator\'s words', async () => {
  for (const message of ['Array buffer allocation failed', 'Invalid typed array length: 2147483648']) {
    standIn.reset();
    const failing = setup((proposed) => proposed, new RangeError(message));
    await saveLens(failing.saving, failing.run, head(false));
    assert.deepEqual(errors(), ['Attention Lens: the lens on layer 2 head 3: the run is too long to cut this head out of it in memory (its layer is recorded whole); run a shorter text and open the head again']);
    assert.deepEqual(failing.shown, []);
  }
});
