// A head of a web run opened in the lens (web-lens.ts, through workspace.fs): written in the
// extension's storage under the desktop's name for the model and head, and opened again it replaces
// that lens instead of adding -2, -3… copies that nothing removes.
import '../../../../support/vscode/register.js';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { saveWebLens } from '../../../../../src/host/web/model-run/web-lens.js';
import type { LensSaving } from '../../../../../src/host/checkpoint-run/lens-save.js';
import { proposedDialogs } from '../../../../../src/host/dialogs.js';
import { asVscode, standIn, Uri } from '../../../../support/vscode/index.js';
import { fakeHeadLens } from '../../../../support/head-lens.js';
import { tempDir } from '../../../../support/temp-dir.js';

beforeEach(() => standIn.reset());

test('a head opened in the lens twice is one lens in the extension\'s storage, replaced', async () => {
  const dir = tempDir('attn-web-lens-open-');
  const shown: string[] = [];
  const saving: LensSaving = {
    lens: (layer, head) => Promise.resolve({ ...fakeHeadLens({ n: 4, dModel: 6, headDim: 2, rotary: false, biases: true }), layer, head }),
    dialogs: proposedDialogs,
    globalStorageUri: asVscode<vscode.Uri>(Uri.file(join(dir, 'storage'))),
    showSpec: (uri) => { shown.push(uri.path); return Promise.resolve(); },
  };
  const run = { spec: asVscode<vscode.Uri>(Uri.file(join(dir, 'run.attn.json'))), model: 'models/tiny', folder: Uri.file(join(dir, 'models', 'tiny')).toString() };
  for (let i = 0; i < 2; i++) await saveWebLens(saving, run, { type: 'lens', layer: 1, head: 2, token: 3, save: false });
  const spec = Uri.file(join(dir, 'storage', 'lens', 'tiny-layer2-head3.attn.json')).path;
  assert.deepEqual(shown, [spec, spec]);
  assert.deepEqual(readdirSync(join(dir, 'storage', 'lens')).sort(), ['tiny-layer2-head3.attn.json', 'tiny-layer2-head3.safetensors']);
});
