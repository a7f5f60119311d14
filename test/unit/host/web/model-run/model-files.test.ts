// Where a model spec's model is on the web, and its files, read through vscode.workspace.fs (the
// stand-in's, on disk here): the induction example's folder beside its spec, every file stat'ed before
// any is read and all of them held to a total (the refusal names the file and the limit); what the web
// cannot read (a Hugging Face id, an absolute path, "..", a spec outside the workspace or untitled) is
// one line saying so; and the folder's checks are the disk's, with the same messages.
import '../../../../support/vscode/register.js';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { MAX_WEB_MODEL_BYTES, WebModelFiles } from '../../../../../src/host/web/model-run/model-files.js';
import { memoryFolderFiles, type MemoryEntry } from '../../../../../src/core/checkpoint-files/folder-files.js';
import type { RunFiles } from '../../../../../src/host/checkpoint-run/client.js';
import { readModelFolderFrom } from '../../../../../src/core/checkpoint-files/model-folder-read.js';
import { readModelFolder } from '../../../../../src/core/checkpoint-files/model-folder.js';
import { NOT_ON_THE_WEB } from '../../../../../src/host/web/not-on-web-text.js';
import { asVscode, standIn, Uri, workspace } from '../../../../support/vscode/index.js';
import { tempDir } from '../../../../support/temp-dir.js';
import { ROOT } from '../../../../support/paths.js';

const EXAMPLES = join(ROOT, 'examples');
const SPEC = asVscode<vscode.Uri>(Uri.file(join(EXAMPLES, 'induction-gpt2.attn.json')));

function workspaceAt(folder: string): void {
  standIn.documents.state.folders = [{ uri: Uri.file(folder), name: 'w', index: 0 }];
}

/** Counts workspace.fs.readFile calls while `f` runs. */
async function countingReads<T>(f: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const fs = workspace.fs as { readFile(uri: Uri): Promise<Uint8Array> };
  const readFile = fs.readFile;
  const reads: string[] = [];
  fs.readFile = (uri) => { reads.push(uri.path.split('/').pop()!); return readFile(uri); };
  try {
    return { result: await f(), reads };
  } finally {
    fs.readFile = readFile;
  }
}

beforeEach(() => standIn.reset());

/** The located files' bytes (a read refused fails the test). */
async function entriesOf(files: RunFiles): Promise<ReadonlyMap<string, MemoryEntry>> {
  const read = await files.read();
  assert.ok(!('problem' in read), JSON.stringify(read));
  return read.entries;
}

test('the induction example\'s folder is read into memory, and reads as the disk\'s reader reads it', async () => {
  workspaceAt(EXAMPLES);
  const files = new WebModelFiles();
  const at = await files.locate('models/induction-gpt2', SPEC);
  assert.ok(!('problem' in at), JSON.stringify(at));
  assert.equal(at.folder, Uri.file(join(EXAMPLES, 'models', 'induction-gpt2')).toString());
  const web = readModelFolderFrom(memoryFolderFiles(at.folder, await entriesOf(at.files)));
  const disk = readModelFolder(join(EXAMPLES, 'models', 'induction-gpt2'));
  try {
    assert.equal(web.configText, disk.configText);
    assert.equal(web.tokenizerFiles.tokenizerJson, disk.tokenizerFiles.tokenizerJson);
    assert.deepEqual([...web.tensors.values()].map((t) => [t.name, t.dtype, t.shape, t.offset]), [...disk.tensors.values()].map((t) => [t.name, t.dtype, t.shape, t.offset]));
    assert.deepEqual(web.files.map((f) => f.slice(at.folder.length + 1)), disk.files.map((f) => f.slice(disk.folder.length + 1)));
  } finally {
    web.close();
    disk.close();
  }
  // An edit of the text: the same files (sizes and times unchanged) have the same key, and locating reads none.
  const { result: again, reads } = await countingReads(() => files.locate('models/induction-gpt2', SPEC));
  assert.ok(!('problem' in again));
  assert.equal(again.files.key, at.files.key);
  assert.deepEqual(reads, []);
});

test('past the total the browser holds, one line names the file, its size and the limit; nothing is read', async () => {
  workspaceAt(EXAMPLES);
  assert.equal(MAX_WEB_MODEL_BYTES, 512 * 2 ** 20);
  const { result, reads } = await countingReads(() => new WebModelFiles(300 * 1024).locate('models/induction-gpt2', SPEC));
  assert.ok('problem' in result);
  assert.match(result.problem, /^file:\/\/.*\/models\/induction-gpt2\/model\.safetensors: 0\.4 MiB, which brings the model's files to 0\.\d MiB, over the 0\.3 MiB VS Code for the Web reads for a model run: run this model in VS Code on the desktop$/);
  assert.doesNotMatch(result.problem, /\n/);
  assert.deepEqual(reads, [], 'every file stat\'ed, none read');
});

test('what the web cannot read says so in one line: a Hugging Face id, an absolute path, "..", a spec outside the workspace or untitled', async () => {
  workspaceAt(EXAMPLES);
  const files = new WebModelFiles();
  const problem = async (model: string, spec = SPEC) => {
    const at = await files.locate(model, spec);
    assert.ok('problem' in at, `${model}: ${JSON.stringify(at)}`);
    assert.doesNotMatch(at.problem, /\n/);
    return at.problem;
  };
  assert.equal(await problem('gpt2'), `no folder "gpt2" beside the spec, and a model named by its Hugging Face id is read from the Hugging Face cache on a disk, which ${NOT_ON_THE_WEB}`);
  assert.equal(await problem('openai-community/gpt2'), `no folder "openai-community/gpt2" beside the spec, and a model named by its Hugging Face id is read from the Hugging Face cache on a disk, which ${NOT_ON_THE_WEB}`);
  assert.match(await problem('/home/me/models/gpt2'), new RegExp(`^/home/me/models/gpt2: a model at an absolute path is read from a disk, which ${NOT_ON_THE_WEB}`));
  assert.match(await problem('C:\\models\\gpt2'), /absolute path/);
  assert.match(await problem('../models/induction-gpt2'), /"\.\.", going up, is not allowed/);
  assert.equal(await problem('models/no such model'), 'no folder "models/no such model" beside the spec');
  assert.match(await problem('models/induction-gpt2', asVscode<vscode.Uri>(Uri.file(join(ROOT, 'README.attn.json')))), /outside the workspace's folders/);
  assert.match(await problem('models/induction-gpt2', asVscode<vscode.Uri>(Uri.parse('untitled:Untitled-1'))), /untitled spec has no folder/);
});

test('a folder\'s faults are the disk reader\'s, with the same words: a missing shard, a shard outside the folder, no config.json, a folder for a file', async () => {
  const dir = tempDir('attn-web-model-');
  workspaceAt(dir);
  const spec = asVscode<vscode.Uri>(Uri.file(join(dir, 'run.attn.json')));
  const weights = readFileSync(join(EXAMPLES, 'models', 'induction-gpt2', 'model.safetensors'));
  // null: a folder by that name.
  const cases: [string, Record<string, string | Buffer | null>][] = [
    ['missing-shard', { 'config.json': '{}', 'model.safetensors.index.json': JSON.stringify({ weight_map: { 'wte.weight': 'model-00001.safetensors' } }) }],
    ['outside', { 'config.json': '{}', 'model.safetensors.index.json': JSON.stringify({ weight_map: { 'wte.weight': '../model.safetensors' } }) }],
    ['no-config', { 'model.safetensors': weights }],
    ['no-tokenizer', { 'config.json': '{}', 'model.safetensors': weights }],
    ['config-folder', { 'config.json': null, 'model.safetensors': weights }],
    ['weights-folder', { 'config.json': '{}', 'model.safetensors': null }],
  ];
  for (const [name, content] of cases) {
    const folder = join(dir, name);
    mkdirSync(folder);
    for (const [file, bytes] of Object.entries(content)) {
      if (bytes === null) mkdirSync(join(folder, file));
      else writeFileSync(join(folder, file), bytes);
    }
    const diskError = (() => { try { readModelFolder(folder).close(); return 'no error'; } catch (e) { return (e as Error).message.replaceAll(folder, '<folder>'); } })();
    const at = await new WebModelFiles().locate(name, spec);
    const webFolder = Uri.file(folder).toString();
    const webError = 'problem' in at ? at.problem.replaceAll(webFolder, '<folder>')
      : await (async () => { try { readModelFolderFrom(memoryFolderFiles(at.folder, await entriesOf(at.files))).close(); return 'no error'; } catch (e) { return (e as Error).message.replaceAll(webFolder, '<folder>'); } })();
    assert.notEqual(diskError, 'no error', name);
    assert.equal(webError, diskError, name);
  }
});
