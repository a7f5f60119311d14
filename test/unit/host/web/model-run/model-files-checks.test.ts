// What the web's model reader refuses before it reads, and what it reads at all: a pipe named
// tokenizer.json is refused in the disk reader's words (a read would wait on it for ever); a small
// file over its own limit is refused at its stat, unread; only the files the reader opens are read and
// counted (not model.safetensors beside an index, nor a vocabulary beside tokenizer.json); an index
// that cannot be read is a problem, not a rejection; a file that grew past the budget after its stat
// is refused once read.
import '../../../../support/vscode/register.js';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { WebModelFiles } from '../../../../../src/host/web/model-run/model-files.js';
import { MAX_CONFIG_BYTES, MAX_TOKENIZER_BYTES } from '../../../../../src/core/checkpoint-files/model-folder-read.js';
import { readModelFolder } from '../../../../../src/core/checkpoint-files/model-folder.js';
import { asVscode, standIn, Uri, workspace } from '../../../../support/vscode/index.js';
import { tempDir } from '../../../../support/temp-dir.js';
import { ROOT } from '../../../../support/paths.js';

const EXAMPLE = join(ROOT, 'examples', 'models', 'induction-gpt2');
const example = (name: string) => readFileSync(join(EXAMPLE, name));

beforeEach(() => standIn.reset());

/** A workspace with a model folder "m" holding `files` (null: a pipe), and the spec beside it. */
function modelFolder(files: Record<string, string | Buffer | null>): { dir: string; folder: string; spec: vscode.Uri } {
  const dir = tempDir('attn-web-model-');
  standIn.documents.state.folders = [{ uri: Uri.file(dir), name: 'w', index: 0 }];
  const folder = join(dir, 'm');
  mkdirSync(folder);
  for (const [name, bytes] of Object.entries(files)) {
    if (bytes === null) execFileSync('mkfifo', [join(folder, name)]);
    else writeFileSync(join(folder, name), bytes);
  }
  return { dir, folder, spec: asVscode<vscode.Uri>(Uri.file(join(dir, 's.attn.json'))) };
}

/** The names workspace.fs.readFile was asked for while `f` ran. */
async function reads<T>(f: () => Promise<T>): Promise<{ result: T; read: string[] }> {
  const fs = workspace.fs as { readFile(uri: Uri): Promise<Uint8Array> };
  const readFile = fs.readFile;
  const read: string[] = [];
  fs.readFile = (uri) => { read.push(uri.path.split('/').pop()!); return readFile(uri); };
  try {
    return { result: await f(), read };
  } finally {
    fs.readFile = readFile;
  }
}

test('a pipe named tokenizer.json is refused as the disk refuses it, and never read', async () => {
  const { folder, spec } = modelFolder({ 'config.json': example('config.json'), 'model.safetensors': example('model.safetensors'), 'tokenizer.json': null });
  const disk = (() => { try { readModelFolder(folder).close(); return 'read'; } catch (e) { return (e as Error).message; } })();
  assert.match(disk, /tokenizer\.json: not a regular file \(a pipe \(FIFO\)\): a model folder's tokenizer\.json is a file$/);
  const { result, read } = await reads(() => new WebModelFiles().locate('m', spec));
  assert.ok('problem' in result, JSON.stringify(result));
  assert.equal(result.problem, `${Uri.file(join(folder, 'tokenizer.json')).toString()}: not a regular file (neither a file nor a folder: a pipe, a socket or a device): a model folder's tokenizer.json is a file`);
  assert.deepEqual(read, []);
});

test('a pipe for the weights is refused in the words of the disk\'s weights reader', async () => {
  const { folder, spec } = modelFolder({ 'config.json': example('config.json'), 'model.safetensors': null, 'tokenizer.json': example('tokenizer.json') });
  const at = await new WebModelFiles().locate('m', spec);
  assert.ok('problem' in at);
  assert.equal(at.problem, `${Uri.file(join(folder, 'model.safetensors')).toString()}: not a regular file but neither a file nor a folder: a pipe, a socket or a device`);
});

test('a small file over its own limit is refused at its stat, before any file is read', async () => {
  const cases: [string, number][] = [['config.json', MAX_CONFIG_BYTES], ['tokenizer_config.json', MAX_CONFIG_BYTES], ['tokenizer.json', MAX_TOKENIZER_BYTES]];
  for (const [name, limit] of cases) {
    standIn.reset();
    const files: Record<string, string | Buffer> = { 'config.json': example('config.json'), 'model.safetensors': example('model.safetensors'), 'tokenizer.json': example('tokenizer.json') };
    files[name] = `${' '.repeat(limit)}{}`;
    const { folder, spec } = modelFolder(files);
    const { result, read } = await reads(() => new WebModelFiles().locate('m', spec));
    assert.ok('problem' in result, name);
    assert.equal(result.problem, `${Uri.file(join(folder, name)).toString()}: more than ${limit} bytes, too large for a ${name}`);
    assert.deepEqual(read, [], `${name}: nothing read`);
  }
});

test('only the files the reader opens are read and counted: the index\'s shards, not model.safetensors; tokenizer.json, not vocab.txt', async () => {
  const weights = example('model.safetensors');
  const header = JSON.parse(weights.subarray(8, 8 + Number(weights.readBigUInt64LE(0))).toString()) as Record<string, unknown>;
  const names = Object.keys(header).filter((k) => k !== '__metadata__');
  const { spec } = modelFolder({
    'config.json': example('config.json'),
    'model-00001.safetensors': weights,
    'model.safetensors.index.json': JSON.stringify({ weight_map: Object.fromEntries(names.map((n) => [n, 'model-00001.safetensors'])) }),
    'model.safetensors': weights, // never opened beside an index
    'tokenizer.json': example('tokenizer.json'),
    'vocab.txt': 'x'.repeat(300_000), // never opened beside tokenizer.json
  });
  // A budget the opened files fit in, though not with the two files never opened.
  const budget = weights.length + example('tokenizer.json').length + example('config.json').length + 200_000;
  const at = await new WebModelFiles(budget).locate('m', spec);
  assert.ok(!('problem' in at), JSON.stringify(at));
  const { result, read } = await reads(() => at.files.read());
  assert.ok(!('problem' in result));
  assert.deepEqual([...result.entries.keys()].sort(), ['config.json', 'model-00001.safetensors', 'model.safetensors.index.json', 'tokenizer.json']);
  assert.deepEqual(read.sort(), ['config.json', 'model-00001.safetensors', 'tokenizer.json'], 'the index read once, when located');
});

test('an index that cannot be read is a problem in one line, not a rejection', async () => {
  const { folder, spec } = modelFolder({ 'config.json': '{}', 'model.safetensors.index.json': '{"weight_map":{"a":"x.safetensors"}}' });
  const fs = workspace.fs as { readFile(uri: Uri): Promise<Uint8Array> };
  const readFile = fs.readFile;
  fs.readFile = (uri) => (uri.path.endsWith('index.json') ? Promise.reject(new Error('EACCES (FileSystemError)')) : readFile(uri));
  try {
    const at = await new WebModelFiles().locate('m', spec);
    assert.ok('problem' in at);
    assert.equal(at.problem, `${Uri.file(folder).toString()}: a file of the model could not be read (EACCES (FileSystemError))`);
  } finally {
    fs.readFile = readFile;
  }
});

test('a file that grew past the budget between its stat and its read is refused once read', async () => {
  const { folder, spec } = modelFolder({ 'config.json': example('config.json'), 'model.safetensors': example('model.safetensors'), 'tokenizer.json': example('tokenizer.json') });
  const budget = example('config.json').length + example('model.safetensors').length + example('tokenizer.json').length + 1000;
  const at = await new WebModelFiles(budget).locate('m', spec);
  assert.ok(!('problem' in at));
  writeFileSync(join(folder, 'model.safetensors'), Buffer.concat([example('model.safetensors'), Buffer.alloc(2000)]));
  const read = await at.files.read();
  assert.ok('problem' in read);
  assert.match(read.problem, /: 0\.\d MiB, which brings the model's files to 0\.\d MiB, over the 0\.\d MiB VS Code for the Web reads for a model run/);
});
