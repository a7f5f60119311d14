// Model attention files, written by numpy itself (np.save, np.savez, np.savez_compressed) and by a
// hand-made safetensors writer in Python, read by our readers; every head statistic and the rollout
// are compared with numpy's own, computed in test/support/numpy-tensors.py. Then broken files: each
// must give one clear message naming the file, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../../src/cli/run.js';
import { decode, float16, type DType } from '../../../../src/core/tensors/dtype.js';
import { layerNumber, type TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { readNpy } from '../../../../src/core/tensors/npy.js';
import { readSafetensors } from '../../../../src/core/tensors/safetensors.js';
import { fileSource } from '../../../../src/core/files/file-source.js';
import type { InspectJson } from '../../../../src/core/tensors/inspect.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const skip = python ? false : 'numpy is not installed (CI installs python3-numpy)';

interface Case { file: string; dtype: string; tokens: string[]; stats: Record<string, number | null>[]; rollout: number[][] }

let dir = '';
let cases: Record<string, Case> = {};
if (python) {
  dir = tempDir('attn-tensors-');
  const r = spawnSync(python, [join(ROOT, 'test', 'support', 'numpy-tensors.py'), dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  cases = JSON.parse(r.stdout) as Record<string, Case>;
}

async function attn(...argv: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await run(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const close = (a: number | null, b: number | null, what: string) => {
  if (a === null || b === null) { assert.equal(a, b, what); return; }
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ours ${a}, numpy ${b}`);
};

for (const name of ['safetensors-f32', 'safetensors-bf16-per-layer', 'npy-f16', 'npy-f64', 'npz-stored', 'npz-deflated', 'helper']) {
  test(`attn inspect --json ${name}: every head's statistics and the rollout equal numpy's`, { skip }, async () => {
    const c = cases[name];
    const r = await attn('inspect', join(dir, c.file), '--json');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '');
    const json = JSON.parse(r.out) as InspectJson;
    assert.deepEqual(Object.keys(json), ['file', 'dtype', 'layers', 'heads', 'tokens', 'tokenTexts', 'stats', 'rollout']);
    assert.equal(json.dtype, c.dtype);
    assert.deepEqual(json.tokenTexts, c.tokens);
    assert.equal(json.stats.length, c.stats.length);
    assert.equal(json.layers * json.heads, c.stats.length);
    json.stats.forEach((s, k) => {
      const want = c.stats[k];
      assert.deepEqual(Object.keys(s), ['layer', 'head', 'entropy', 'confidence', 'distance', 'previousToken', 'duplicateToken', 'induction', 'sink']);
      assert.equal(s.layer, want.layer);
      assert.equal(s.head, want.head);
      for (const key of ['entropy', 'confidence', 'distance', 'previousToken', 'duplicateToken', 'induction', 'sink'] as const) close(s[key], want[key], `${name} layer ${s.layer} head ${s.head} ${key}`);
    });
    assert.equal(json.rollout!.length, json.tokens);
    json.rollout!.forEach((row, i) => row.forEach((v, j) => close(v, c.rollout[i][j], `${name} rollout[${i}][${j}]`)));
  });
}

test('the per-layer cases really exercise sorting and tokens: 11 layers with layer 10 last, duplicates present', { skip }, () => {
  const c = cases['safetensors-bf16-per-layer'];
  assert.equal(c.stats.at(-1)!.layer, 10);
  assert.ok(c.stats.some((s) => s.duplicateToken !== null));
  assert.ok(cases['npz-stored'].stats.every((s) => s.duplicateToken === null && s.induction === null));
});

test('every half float (all 65,536 bit patterns) decodes to exactly numpy\'s value, in F16 (.npy) and BF16 (safetensors)', { skip }, () => {
  const values = (file: string) => {
    const source = fileSource(join(dir, file));
    const t = readNpy(source, file);
    const out = new Float64Array(65536);
    decode(t.dtype as DType, source.read(t.offset, 65536 * 8), 65536, out);
    source.close();
    return out;
  };
  const decoded = (t: TensorRef) => {
    const out = new Float64Array(65536);
    decode(t.dtype as DType, t.source.read(t.offset, 65536 * 2), 65536, out);
    return out;
  };
  const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
  const f16Source = fileSource(join(dir, 'all-f16.npy'));
  const f16 = decoded(readNpy(f16Source, 'all-f16'));
  f16Source.close();
  const f16Want = values('all-f16-values.npy');
  for (let b = 0; b < 65536; b++) assert.ok(same(f16[b], f16Want[b]) && same(float16(b), f16Want[b]), `F16 bits ${b.toString(16)}: ${f16[b]} vs numpy ${f16Want[b]}`);
  const bfSource = fileSource(join(dir, 'all-bf16.safetensors'));
  const bf = decoded(readSafetensors(bfSource).tensors[0]);
  bfSource.close();
  const bfWant = values('all-bf16-values.npy');
  for (let b = 0; b < 65536; b++) assert.ok(same(bf[b], bfWant[b]), `BF16 bits ${b.toString(16)}: ${bf[b]} vs numpy ${bfWant[b]}`);
});

test('layer numbers are the last number in a tensor name', () => {
  assert.equal(layerNumber('model.layers.11.self_attn'), 11);
  assert.equal(layerNumber('attn.3'), 3);
  assert.equal(layerNumber('arr_10'), 10);
  assert.equal(layerNumber('attention'), undefined);
});

// --- broken files: one line naming the file, exit 1 ---

async function refused(file: string, pattern: RegExp, ...extra: string[]) {
  const r = await attn('inspect', file, ...extra);
  assert.equal(r.code, 1, `${file}: expected exit 1, got ${r.code}; ${r.err}`);
  assert.equal(r.out, '');
  assert.equal(r.err.split('\n').length, 1, r.err);
  assert.ok(r.err.startsWith(file), r.err);
  assert.match(r.err, pattern);
}

for (const [file, pattern] of [
  ['fortran.npy', /Fortran order/],
  ['big-endian.npy', /dtype >f4 is not one we read/],
  ['ints.npy', /dtype <i4 is not one we read/],
  ['not-square.npy', /not square/],
  ['nan.npy', /layer 0 head 1: the weight of query 2 on key 3 is NaN/],
  ['batch2.npy', /a batch of 2/],
] as const) {
  test(`a numpy-written ${file} is refused: ${pattern.source}`, { skip }, () => refused(join(dir, file), pattern));
}

test('scores saved before the softmax: inspect still answers, with a warning that rows do not sum to 1', { skip }, async () => {
  const r = await attn('inspect', join(dir, 'scores.npy'), '--json');
  assert.equal(r.code, 0);
  assert.match(r.err, /scores\.npy: warning: 8 row\(s\) do not sum to 1 \(first: layer 0 head 0 query 0 sums to .*softmax/);
  assert.match(r.err, /negative weight/);
  assert.doesNotMatch(r.out, /NaN/);
});

/** A safetensors file from a header object (or raw header text) and data bytes. */
function safetensors(header: unknown, data: Uint8Array, sizeOverride?: bigint): string {
  const text = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(sizeOverride ?? BigInt(text.length));
  const file = join(tempDir('attn-st-'), 'bad.safetensors');
  writeFileSync(file, Buffer.concat([size, text, data]));
  return file;
}

const identity2 = new Uint8Array(new Float32Array([1, 0, 0, 1]).buffer);

test('a hand-written safetensors identity opens: 1 layer, 1 head, rollout the identity', async () => {
  const file = safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] }, __metadata__: { tokens: '["x","x"]' } }, identity2);
  const r = await attn('inspect', file, '--json');
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out) as InspectJson;
  assert.deepEqual(json.rollout, [[1, 0], [0, 1]]);
  assert.deepEqual(json.stats[0], { layer: 0, head: 0, entropy: 0, confidence: 1, distance: 0, previousToken: 0, duplicateToken: 0, induction: 1, sink: 0.5 });
});

test('broken safetensors files each get their own message', async () => {
  await refused(safetensors({}, new Uint8Array(), 1n << 40n), /header size 1099511627776 bytes is over the 100000000-byte limit/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }, identity2, 5000n), /header size 5000 bytes reaches past the end of the file/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }, identity2.subarray(0, 12)), /data_offsets \[0, 16\] are outside the 12 bytes of data/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 12] } }, identity2), /needs 16 bytes but data_offsets \[0, 12\] hold 12/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [1, 2, 2], data_offsets: [0, 16] }, b: { dtype: 'F32', shape: [2, 2], data_offsets: [8, 24] } }, new Uint8Array(24)), /overlap/);
  await refused(safetensors({ a: { dtype: 'I64', shape: [2, 2], data_offsets: [0, 32] } }, new Uint8Array(32)), /dtype I64 is not one we read/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] }, __metadata__: { tokens: '["only one"]' } }, identity2), /1 token\(s\) given, but the attention is 2 × 2/);
  await refused(safetensors('{"a": ', identity2), /header is not valid UTF-8 JSON/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] }, b: { dtype: 'F32', shape: [2, 2], data_offsets: [16, 32] } }, new Uint8Array(32)), /"a" does not end in a layer number|"b" does not end in a layer number/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2 ** 40, 2 ** 40], data_offsets: [0, 16] } }, identity2), /more elements than can be counted/);
  await refused(safetensors({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }, identity2), /no tensor "b"; the file has "a"/, '--tensor', 'b');
});

test('a truncated .npy and a truncated .npz are refused, not read past their end', { skip }, async () => {
  const tmp = tempDir('attn-cut-');
  for (const name of ['heads.npy', 'layers.npz', 'packed.npz']) {
    const bytes = readFileSync(join(dir, name));
    const cut = join(tmp, name);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 40));
    await refused(cut, /truncated|damaged|zip end record|reaches past/);
  }
});

test('a directory and a missing file are refused with their reason', async () => {
  await refused(tmpdir(), /not a regular file|EISDIR/);
  await refused(join(tmpdir(), 'no-such-attention.npy'), /cannot open \(ENOENT\)/);
});
