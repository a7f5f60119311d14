// The web build reads a spec's tensor files through vscode.workspace.fs before the analysis (which
// cannot call VS Code) opens them from memory: the numbers are the desktop's, read from disk with
// node:fs; a file missing, outside the folder, a folder, or over the size limit is a sentence at its
// "file"; an .npz (inflated with zlib on the desktop) says it is read there only.
import '../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_WEB_SPEC_FILES_BYTES, MAX_WEB_TENSOR_FILE_BYTES, namedFiles, withSpecFiles } from '../../../../src/host/web/spec-files.js';
import { filesNotRead } from '../../../../src/host/web/no-disk-files.js';
import { Analyst } from '../../../../src/host/analysis/analyst.js';
import { AnalysisRunner } from '../../../../src/host/analysis/runner.js';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { decodeAttention } from '../../../../src/core/result/wire.js';
import { Uri } from '../../../support/vscode/index.js';
import { npyBytes, npyDict } from '../../../support/tensor-files.js';
import { tempDir } from '../../../support/temp-dir.js';

const spec = (wq: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({
  embeddings: { a: [1, 0, 0.5], b: [0, 1, 0.25] }, inputs: [{ name: 'x', tokens: ['a', 'b'] }],
  heads: [{ name: 'h', wq, wk: { file: 'w/wk.npy' }, wv: [[1, 0], [0, 1], [1, 1]] }], ...extra,
});

function folderWithWeights(): string {
  const folder = tempDir('web-spec-files-');
  mkdirSync(join(folder, 'w'));
  const values = Float64Array.from({ length: 6 }, (_, i) => (i * 37 % 11) / 5 - 1);
  for (const name of ['wq', 'wk']) writeFileSync(join(folder, 'w', `${name}.npy`), npyBytes(npyDict('<f8', [3, 2]), Buffer.from(values.buffer)));
  return folder;
}

test('the names are the spec\'s { "file" } objects, once each, but its attention reference', () => {
  assert.deepEqual(namedFiles(spec({ file: 'w/wq.npy', tensor: 'x' }, { attention: { file: 'run.npy' } })), ['w/wq.npy', 'w/wk.npy']);
  assert.deepEqual(namedFiles(spec({ file: 'w/wk.npy' })), ['w/wk.npy']);
  assert.deepEqual(namedFiles('{ "heads": [ { "wq": { "file": '), [], 'a broken spec names none it can be sure of');
});

test('read through workspace.fs, the spec computes what the desktop computes from disk, bit for bit', async () => {
  const folder = folderWithWeights();
  const text = spec({ file: 'w/wq.npy' });
  const runner = new AnalysisRunner(undefined, () => {}, new Analyst(undefined, undefined, filesNotRead), withSpecFiles);
  const a = await runner.run('doc', text, undefined, Uri.file(join(folder, 'x.attn.json')).toString());
  assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), []);
  assert.ok(a.wire);
  const web = decodeAttention(a.wire.header, a.wire.buffer).inputs[0].heads[0];
  const desktop = analyze(text, { files: folderFiles(folder) }).data!.inputs[0].heads[0];
  assert.deepEqual(Array.from(web.scores.data), Array.from(desktop.scores.data));
  assert.deepEqual(Array.from(web.weights.data), Array.from(desktop.weights.data));
  const linalg = await runner.run('doc#linalg', text, undefined, Uri.file(join(folder, 'x.attn.json')).toString(), 'linalg');
  assert.ok(linalg.linalg);
});

test('a file missing, leading out, a folder, over the limit or an .npz: one sentence at its "file"', async () => {
  const folder = folderWithWeights();
  mkdirSync(join(folder, 'w', 'dir.npy'));
  writeFileSync(join(folder, 'big.npy'), '');
  truncateSync(join(folder, 'big.npy'), MAX_WEB_TENSOR_FILE_BYTES + 1); // sparse: nothing written
  writeFileSync(join(folder, 'w', 'z.npz'), Buffer.from('PK\x03\x04 an npz'));
  const analyst = new Analyst(undefined, undefined, filesNotRead);
  const cases: [string, RegExp][] = [
    ['w/none.npy', /^w\/none\.npy: no such file beside the spec$/],
    ['../w/wq.npy', /going up, is not allowed/],
    ['w/dir.npy', /a folder, not a tensor file/],
    ['big.npy', /^big\.npy: 64\.1 MiB, over the 64\.0 MiB a tensor file may have in VS Code for the Web/],
    ['w/z.npz', /an \.npz file is read on the desktop only/],
  ];
  for (const [name, message] of cases) {
    const request = await withSpecFiles({ text: spec({ file: name }), folder: Uri.file(join(folder, 'x.attn.json')).toString() });
    const errors = analyst.answer(request).problems.filter((p) => p.severity === 'error');
    assert.equal(errors.length, 1, `${name}: ${JSON.stringify(errors)}`);
    assert.equal(errors[0].path, 'heads[0].wq.file', name);
    assert.match(errors[0].message, message, name);
  }
});

test('a spec\'s files together are read up to MAX_WEB_SPEC_FILES_BYTES; the one that passes it is a sentence at its "file"', async () => {
  const folder = tempDir('web-spec-files-total-');
  const names = ['a', 'b', 'c', 'd', 'e'].map((n) => `${n}.npy`);
  const each = 60 * 2 ** 20; // within the one-file limit, five of them past the spec's
  for (const name of names) { writeFileSync(join(folder, name), ''); truncateSync(join(folder, name), each); }
  const text = JSON.stringify({ heads: names.map((file, i) => ({ name: `h${i}`, wq: { file } })) });
  const files = (await withSpecFiles({ text, folder: Uri.file(join(folder, 'spec.attn.json')).toString() })).files!;
  assert.equal(Math.floor(MAX_WEB_SPEC_FILES_BYTES / each), 4);
  for (const name of names.slice(0, 4)) assert.equal((files[name] as Uint8Array).byteLength, each, name);
  assert.match(files['e.npy'] as string, /^e\.npy: not read, the spec's files together pass the 256\.0 MiB VS Code for the Web reads for one spec$/);
});
