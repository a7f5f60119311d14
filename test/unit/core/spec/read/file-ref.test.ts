// A spec may keep its big arrays in tensor files beside it (src/core/spec/read/file-ref.ts,
// src/core/files/spec-files.ts): "wq": { "file": "w.npy" }, "embeddings": { "file": ..., "words": [...] }.
// The numbers read must be those written; every bad reference gets a message on the reference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { analyze } from '../../../../../src/core/index.js';
import { folderFiles } from '../../../../../src/core/files/spec-files.js';
import { memorySource } from '../../../../../src/core/tensors/source.js';
import { findTensors } from '../../../../../src/core/files/open.js';
import { MAX_FILE_NUMBERS_TOTAL } from '../../../../../src/core/spec/read/file-ref.js';
import { npyBytes, npyDict } from '../../../../support/tensor-files.js';
import { runInChild } from '../../../../support/child.js';
import { run as runCli } from '../../../../../src/cli/run.js';
import { tempDir } from '../../../../support/temp-dir.js';

/** An .npy (version 1) of little-endian floats: '<f4' or '<f8'. */
function npy(shape: number[], values: number[], descr: '<f4' | '<f8' = '<f4'): Buffer {
  const data = descr === '<f4' ? Buffer.from(new Float32Array(values).buffer) : Buffer.from(new Float64Array(values).buffer);
  return npyBytes(npyDict(descr, shape), data);
}

/** A safetensors file with F32 tensors. */
function safetensors(tensors: Record<string, { shape: number[]; values: number[] }>): Buffer {
  const header: Record<string, unknown> = {};
  const parts: Buffer[] = [];
  let at = 0;
  for (const [name, t] of Object.entries(tensors)) {
    const bytes = Buffer.from(new Float32Array(t.values).buffer);
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [at, at + bytes.length] };
    parts.push(bytes);
    at += bytes.length;
  }
  const text = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([size, text, ...parts]);
}

const WQ = [[4, 3], [2, 1], [0, 1]];
const WK = [[1, 1], [1, 1], [4, 2]];
const EMB = { apple: [2, 0, 2], orange: [0, 0, 3], watch: [1, 3, 0] };
const INLINE = { embeddings: EMB, inputs: [{ tokens: ['apple', 'orange', 'watch'] }], heads: [{ wq: WQ, wk: WK }], scale: 'none' };

function folder(): string {
  const dir = tempDir('attn-refs-');
  writeFileSync(join(dir, 'wq.npy'), npy([3, 2], WQ.flat()));
  writeFileSync(join(dir, 'wk64.npy'), npy([3, 2], WK.flat(), '<f8'));
  writeFileSync(join(dir, 'emb.npy'), npy([3, 3], Object.values(EMB).flat()));
  writeFileSync(join(dir, 'layer.safetensors'), safetensors({ wq: { shape: [3, 2], values: WQ.flat() }, wk: { shape: [1, 3, 2], values: WK.flat() } }));
  writeFileSync(join(dir, 'nan.npy'), npy([3, 2], [1, 2, 3, Number.NaN, 5, 6]));
  writeFileSync(join(dir, 'cube.npy'), npy([2, 3, 2], new Array(12).fill(1)));
  return dir;
}

const analyzeIn = (dir: string, spec: unknown) => {
  const text = JSON.stringify(spec, null, 2);
  return { text, a: analyze(text, { files: folderFiles(dir) }) };
};
const errorsOf = (a: ReturnType<typeof analyze>) => a.problems.filter((p) => p.severity === 'error');

test('W_Q, W_K and the embeddings read from .npy and .safetensors give the very numbers of the inline spec: 136', () => {
  const dir = folder();
  const inline = analyze(JSON.stringify(INLINE)).data!;
  for (const heads of [
    [{ wq: { file: 'wq.npy' }, wk: { file: 'wk64.npy' } }],
    [{ wq: { file: 'layer.safetensors', tensor: 'wq' }, wk: { file: 'layer.safetensors', tensor: 'wk' } }],
  ]) {
    const { a } = analyzeIn(dir, { ...INLINE, embeddings: { file: 'emb.npy', words: ['apple', 'orange', 'watch'] }, heads });
    assert.deepEqual(errorsOf(a), []);
    const h = a.data!.inputs[0].heads[0];
    assert.deepEqual(Array.from(h.scores.data), Array.from(inline.inputs[0].heads[0].scores.data));
    assert.equal(h.scores.data[2 * 3 + 0], 136, 'watch · apple = 136, as in the seed');
  }
});

test('each bad reference is refused with a message on the reference', () => {
  const dir = folder();
  mkdirSync(join(dir, 'sub'));
  symlinkSync('/etc/hostname', join(dir, 'sub', 'escape.npy'));
  const cases: [{ file: string; tensor?: string; scale?: number }, RegExp, string][] = [
    [{ file: '../wq.npy' }, /"\.\.", going up, is not allowed/, 'file'],
    [{ file: '/etc/passwd' }, /relative to the spec's folder, not an absolute one/, 'file'],
    [{ file: 'sub/escape.npy' }, /leads outside the spec's folder/, 'file'],
    [{ file: 'missing.npy' }, /no such file beside the spec/, 'file'],
    [{ file: 'nan.npy' }, /row 2, column 2 of "array" is NaN/, 'file'],
    [{ file: 'cube.npy' }, /shape \[2, 3, 2\]; a matrix \(rows × columns\) is needed/, 'file'],
    [{ file: 'layer.safetensors' }, /holds 2 tensors \("wq", "wk"\): say which with "tensor"/, 'file'],
    [{ file: 'layer.safetensors', tensor: 'wv' }, /no tensor "wv"; the file has "wq", "wk"/, 'tensor'],
    [{ file: 'wq.npy', tensor: 'nope' }, /wq\.npy: an \.npy file holds one unnamed array, so there is no tensor "nope" in it; leave out "tensor"/, 'tensor'],
    [{ file: 'wq.npy', scale: 2 }, /unknown key in a file reference/, 'scale'],
  ];
  for (const [wq, message, at] of cases) {
    const { text, a } = analyzeIn(dir, { ...INLINE, heads: [{ wq, wk: WK }] });
    const e = errorsOf(a)[0];
    assert.ok(e, `${JSON.stringify(wq)} is refused`);
    assert.match(e.message, message);
    assert.equal(e.path.startsWith('heads[0].wq'), true, e.path);
    const shown = text.slice(e.span.offset, e.span.offset + e.span.length);
    assert.ok(at === 'scale' ? shown.includes('"scale"') : shown.startsWith('"'), `placed on the reference: ${shown}`);
    if (at === 'tensor') assert.equal(shown, JSON.stringify(wq.tensor), 'placed on the tensor\'s name');
  }
  // Rows that do not match d_model, and words that do not match the rows.
  writeFileSync(join(dir, 'two.npy'), npy([2, 2], [1, 0, 0, 1]));
  const short = analyzeIn(dir, { ...INLINE, heads: [{ wq: { file: 'two.npy' }, wk: WK }] }).a;
  assert.match(errorsOf(short)[0].message, /^the file's matrix has 2 rows, but d_model.* is 3$/);
  const words = analyzeIn(dir, { ...INLINE, embeddings: { file: 'emb.npy', words: ['apple', 'watch'] } }).a;
  assert.match(errorsOf(words)[0].message, /2 words for the 3 rows of the file/);
  const twice = analyzeIn(dir, { ...INLINE, embeddings: { file: 'emb.npy', words: ['apple', 'apple', 'watch'] } }).a;
  assert.match(errorsOf(twice)[0].message, /"apple" is listed twice/);
});

test('a spec that is not on disk cannot name tensor files, and says to save it', () => {
  const a = analyze(JSON.stringify({ ...INLINE, heads: [{ wq: { file: 'wq.npy' }, wk: WK }] }));
  assert.match(errorsOf(a)[0].message, /not a file on disk.*save it first/);
});

test('attn compute reads the files beside the spec; from standard input it cannot', async () => {
  const dir = folder();
  const spec = join(dir, 'lens.attn.json');
  writeFileSync(spec, JSON.stringify({ ...INLINE, heads: [{ wq: { file: 'wq.npy' }, wk: { file: 'layer.safetensors', tensor: 'wk' } }] }));
  let out = '', err = '';
  const code = await runCli(['compute', spec, '--json'], { out: (s) => { out += s; }, err: (s) => { err += s; } });
  assert.equal(code, 0, err);
  const json = JSON.parse(out) as { inputs: { heads: { scores: number[][] }[] }[] };
  assert.equal(json.inputs[0].heads[0].scores[2][0], 136);
});

test('a FIFO or a folder named as a tensor file is refused at once, never opened (opening a FIFO blocks until a writer comes)', () => {
  const dir = folder();
  execFileSync('mkfifo', [join(dir, 'pipe.npy')]);
  mkdirSync(join(dir, 'folder.npy'));
  // The reading runs in a child: without the check it would block this process for good.
  const script = `const { analyze } = require('./src/core/index.ts'); const { folderFiles } = require('./src/core/files/spec-files.ts');
    const messages = ['pipe.npy', 'folder.npy'].map((file) => analyze(${JSON.stringify(JSON.stringify(INLINE))}.replace('"wq":[[4,3],[2,1],[0,1]]', JSON.stringify({ wq: { file } }).slice(1, -1)), { files: folderFiles(process.argv[1]) }).problems.map((p) => p.path + ': ' + p.message));
    console.log(JSON.stringify(messages));`;
  const child = runInChild(script, dir);
  assert.equal(child.signal, null, 'the child was killed: opening the FIFO blocked');
  const [pipe, folderMessages] = JSON.parse(child.stdout) as string[][];
  assert.deepEqual(pipe, ['heads[0].wq.file: pipe.npy: not a regular file (a pipe, device or folder cannot hold a tensor)']);
  assert.match(folderMessages[0], /^heads\[0\]\.wq\.file: folder\.npy: not a regular file/);
});

test('the tensor files of one spec are capped together, from their headers: three big tensors cannot make the reader allocate past the cap; one file spelled three ways is read once', () => {
  // 3 × 3,728,271 half floats per tensor: under the cap of one matrix, two of them under the cap of a spec, three over.
  const cols = Math.floor(MAX_FILE_NUMBERS_TOTAL / 3 / 3) + 1;
  const bytes = npyBytes(npyDict('<f2', [3, cols]), Buffer.alloc(3 * cols * 2));
  const opened: string[] = [];
  const files = { open: (name: string) => { opened.push(name); return memorySource(name, bytes); }, find: findTensors };
  const spec = (heads: unknown[]) => JSON.stringify({ embeddings: { a: [1, 2, 3] }, inputs: [{ tokens: ['a'] }], heads }, null, 2);
  const text = spec([{ wq: { file: 'a.npy' }, wk: { file: 'b.npy' } }, { wq: { file: 'c.npy' }, wk: { file: 'a.npy' } }]);
  const a = analyze(text, { files });
  assert.deepEqual(opened, ['a.npy', 'b.npy', 'c.npy'], 'c.npy is opened for its header, a.npy is not read twice');
  const e = errorsOf(a)[0];
  assert.equal(e.path, 'heads[1].wq.file');
  assert.match(e.message, /^c\.npy: 3 × 3728271 = 11,184,813 numbers, over what is left \(11,184,806\) of the 33,554,432 the tensor files of one spec may hold together$/);
  assert.equal(text.slice(e.span.offset, e.span.offset + e.span.length), '"c.npy"');
  opened.length = 0;
  const same = analyze(spec([{ wq: { file: 'a.npy' }, wk: { file: './a.npy' } }, { wq: { file: './/a.npy' }, wk: { file: 'a.npy/' } }]), { files });
  assert.deepEqual(opened, ['a.npy'], 'one file, read once however it is written');
  assert.ok(!errorsOf(same).some((p) => /hold together/.test(p.message)), 'the same file does not count twice');
});
