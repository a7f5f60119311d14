// Open Example (src/host/examples/open-example.ts): the examples are copied into the workspace's
// attention-lens-examples/ (never the originals opened), a copy already there is kept as the learner
// left it, the copy opens in column one with its panel, and the walkthrough's step is marked done.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { openExample } from '../../../../src/host/examples/open-example.js';
import { asVscode, standIn, Uri, ViewColumn, window, workspace } from '../../../support/vscode/index.js';
import { examplesInTemp } from '../../../support/host-fixture.js';
import { EXAMPLES } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';

beforeEach(() => standIn.reset());

function context() {
  const shown: string[] = [];
  return { shown, ctx: { extensionUri: asVscode<vscode.Uri>(Uri.file(ROOT)), show: async (uri: vscode.Uri) => { shown.push(uri.fsPath); } } };
}

test('the examples are copied into the workspace once; the copy opens with its panel, and its step is done', async () => {
  const { folder: ws } = examplesInTemp();
  standIn.documents.setFolders(Uri.file(ws));
  const { shown, ctx } = context();
  const copy = await openExample(ctx, 'apple-watch-lens.attn.json');
  const copies = join(ws, 'attention-lens-examples');
  assert.equal(copy?.fsPath, join(copies, 'apple-watch-lens.attn.json'));
  assert.deepEqual(readdirSync(copies).filter((f) => f !== 'models').sort(), readdirSync(EXAMPLES).filter((f) => f.endsWith('.attn.json')).sort(), 'every example, so Next links work');
  // The checkpoints the model examples run ("model": "models/…" beside the spec), byte for byte.
  const model = join('models', 'induction-gpt2');
  assert.deepEqual(readdirSync(join(copies, model)).sort(), ['config.json', 'model.safetensors', 'tokenizer.json']);
  for (const f of readdirSync(join(copies, model))) assert.ok(readFileSync(join(copies, model, f)).equals(readFileSync(join(EXAMPLES, model, f))), f);
  assert.equal(window.activeTextEditor?.document.uri.fsPath, copy?.fsPath);
  assert.equal(window.activeTextEditor?.viewColumn, ViewColumn.One);
  assert.deepEqual(shown, [copy?.fsPath]);
  assert.equal(standIn.commands.state.context.get('attentionLens.walkthrough.lens'), true);
  assert.match(standIn.windows.state.messages[0].message, /the examples were copied into attention-lens-examples: change any number there; the originals stay as they are/);
  // The learner's edits in a copy are theirs: opening the example again keeps them.
  writeFileSync(copy!.fsPath, '{ "mine": true }');
  writeFileSync(join(copies, model, 'config.json'), '{ "mine": true }');
  await openExample(ctx, 'apple-watch-lens.attn.json');
  assert.equal(readFileSync(copy!.fsPath, 'utf8'), '{ "mine": true }');
  assert.equal(readFileSync(join(copies, model, 'config.json'), 'utf8'), '{ "mine": true }');
  assert.equal(standIn.windows.state.messages.length, 1, 'nothing copied, nothing said');
});

test('a name that is not an example, or a path, opens nothing and says so; from the palette it asks which', async () => {
  const { folder: ws } = examplesInTemp();
  standIn.documents.setFolders(Uri.file(ws));
  const { shown, ctx } = context();
  for (const bad of ['nope.attn.json', '../package.json', 'sub/x.attn.json', 42]) assert.equal(await openExample(ctx, bad), undefined);
  assert.deepEqual(shown, []);
  assert.equal(standIn.windows.state.messages.filter((m) => m.severity === 'error').length, 4);
  assert.deepEqual(readdirSync(ws), [], 'nothing copied');
  let offered: unknown[] = [];
  standIn.windows.state.pick = (items) => { offered = [...items]; return items[0]; };
  const picked = await openExample(ctx, undefined);
  assert.equal(offered.length, 8, 'the story\'s eight steps');
  assert.equal(picked?.fsPath, join(ws, 'attention-lens-examples', 'apple-watch-raw.attn.json'));
});

test('with no folder open the copies go into the extension\'s storage', async () => {
  const { folder: storage } = examplesInTemp();
  const { ctx } = context();
  const copy = await openExample({ ...ctx, globalStorageUri: asVscode(Uri.file(storage)) }, 'mouse-two-contexts.attn.json');
  assert.equal(copy?.fsPath, join(storage, 'examples', 'mouse-two-contexts.attn.json'));
});

test('where the extension\'s folder cannot be listed (the web reads it over HTTP), the build\'s list says what to copy', async () => {
  const { folder: ws } = examplesInTemp();
  standIn.documents.setFolders(Uri.file(ws));
  const fs = workspace.fs as { readDirectory: (uri: Uri) => Promise<unknown> };
  const listed = fs.readDirectory;
  fs.readDirectory = async (uri) => {
    if (uri.fsPath.startsWith(EXAMPLES)) throw new Error('Unable to read directory (NotSupported)');
    return listed(uri);
  };
  try {
    const { ctx } = context();
    const copy = await openExample(ctx, 'mouse-two-contexts.attn.json');
    const copies = join(ws, 'attention-lens-examples');
    assert.equal(copy?.fsPath, join(copies, 'mouse-two-contexts.attn.json'));
    assert.deepEqual(readdirSync(copies).filter((f) => f !== 'models').sort(), readdirSync(EXAMPLES).filter((f) => f.endsWith('.attn.json')).sort());
    const model = join('models', 'induction-gpt2');
    for (const f of readdirSync(join(EXAMPLES, model))) assert.ok(readFileSync(join(copies, model, f)).equals(readFileSync(join(EXAMPLES, model, f))), f);
  } finally {
    fs.readDirectory = listed;
  }
});
