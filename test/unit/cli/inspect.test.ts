// `attn inspect FILE [--json] [--tensor NAME]` (src/cli/inspect.ts): the report's lines (shape,
// tokens, a right-aligned table of every head's statistics, the rollout's top sources for the last
// token), and modelTarget, which opens either the file named or the one a spec references, with
// the spec's tokens, and places the spec's problems at FILE:LINE:COL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { randomAttention, writeSafetensors } from '../../support/model-fixture.js';
import { ROOT } from '../../support/paths.js';
import { join } from 'node:path';
import { inspectReport, modelTarget } from '../../../src/cli/inspect.js';
import { rolloutRefusal } from '../../../src/core/tensors/rollout.js';
import type { InspectJson } from '../../../src/core/tensors/inspect.js';
import { attn } from '../../support/cli.js';
import { analyze } from '../../../src/core/index.js';
import { npyBytes, npyDict } from '../../support/tensor-files.js';
import { tempDir } from '../../support/temp-dir.js';

const io = () => {
  const out: string[] = [], err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
};

const stats = (layer: number, head: number, entropy: number) => ({ layer, head, entropy, confidence: 0.5, distance: 1.25, previousToken: 0, duplicateToken: null, induction: null, sink: 1 });

test('the report: shape, tokens, one right-aligned row per head ("—" for a statistic with no value), the rollout\'s top five', () => {
  const json: InspectJson = {
    file: 'run.npy', dtype: 'F32', layers: 1, heads: 2, tokens: 6, tokenTexts: ['a', 'b', 'c', 'd', 'e', 'f'],
    stats: [stats(0, 0, 0.12345), stats(0, 1, 10)],
    rollout: [[1, 0, 0, 0, 0, 0], [], [], [], [], [0.1, 0.3, 0.05, 0.2, 0.25, 0.1]],
  };
  const lines = inspectReport(json).split('\n');
  assert.equal(lines[0], 'run.npy: F32, 1 layer(s) × 2 head(s) × 6 tokens');
  assert.equal(lines[1], 'tokens: "a" "b" "c" "d" "e" "f"');
  assert.equal(lines[2], '');
  assert.equal(lines[3], 'layer  head  entropy  confidence  distance  previousToken  duplicateToken  induction  sink');
  assert.equal(lines[4], '    0     0   0.1235         0.5      1.25              0               —          —     1');
  assert.equal(lines[5], '    0     1       10         0.5      1.25              0               —          —     1');
  assert.equal(lines[6], '');
  // The last row sorted: 0.3 (b), 0.25 (e), 0.2 (d), then the two 0.1s in their order (a, f); c (0.05) is sixth.
  assert.equal(lines[7], 'rollout: the last token\'s information came most from 1 "b" (0.3), 4 "e" (0.25), 3 "d" (0.2), 0 "a" (0.1), 5 "f" (0.1)');
  assert.equal(lines.length, 8);
});

test('no tokens, more than 12 tokens, a long token, and no rollout are each said so', () => {
  const none = inspectReport({ file: 'f', dtype: 'F16', layers: 2, heads: 1, tokens: 2, tokenTexts: [], stats: [], rollout: [[1, 0], [0.5, 0.5]] });
  assert.match(none, /^tokens: none given \(duplicateToken and induction need them\)$/m);
  assert.match(none, /^rollout: the last token's information came most from 0 \(0\.5\), 1 \(0\.5\)$/m);
  const many = Array.from({ length: 13 }, (_, i) => (i === 0 ? 'x'.repeat(50) : `t${i}`));
  const big = inspectReport({ file: 'f', dtype: 'F32', layers: 1, heads: 1, tokens: 2000, tokenTexts: many, stats: [] });
  assert.equal(big.split('\n')[1], `tokens: "${'x'.repeat(40)}…" ${many.slice(1, 12).map((t) => `"${t}"`).join(' ')} …`);
  assert.equal(big.split('\n').at(-1), 'rollout: left out: the rollout is computed up to 1,024 tokens; this file has 2,000');
  // Within the tokens but over the work budget (16 layers × 1,024³ took 38–47 s): left out, saying why.
  const deep = inspectReport({ file: 'f', dtype: 'F32', layers: 16, heads: 1, tokens: 1024, tokenTexts: [], stats: [] });
  assert.equal(deep.split('\n').at(-1), 'rollout: left out: the rollout of 16 layers × 1,024³ needs 17.2 billion multiply-adds, over the budget of 4.0 billion: it is left out (the heads are all shown); a file of fewer layers or tokens has one');
});

test('the rollout budget, from shapes alone: 12 × 512 is computed, 16 × 1,024 and 255 × 256 are not; the boundary is exact', () => {
  assert.equal(rolloutRefusal(12, 512), undefined);
  assert.match(rolloutRefusal(16, 1024)!, /over the budget/);
  assert.match(rolloutRefusal(255, 512)!, /over the budget/);
  // layers · n³ ≤ 4e9 exactly at the boundary.
  const n = 1000;
  assert.equal(rolloutRefusal(4, n), undefined);
  assert.match(rolloutRefusal(5, n)!, /5 layers × 1,000³ needs 5\.0 billion/);
});

test('modelTarget: a tensor file is opened as named, with --tensor', () => {
  const s = io();
  const t = modelTarget('/x/run.safetensors', { tensor: 'attn' }, s.io);
  assert.ok(typeof t !== 'number');
  assert.equal(t.path, '/x/run.safetensors');
  assert.deepEqual(t.options, { tensor: 'attn' });
  assert.equal(t.place('broken'), 'broken');
  const plain = modelTarget('/x/run.npy', {}, s.io);
  assert.ok(typeof plain !== 'number');
  assert.deepEqual(plain.options, {});
});

test('modelTarget: a spec that references a file opens it beside the spec, with its tokens and tensor', () => {
  const dir = tempDir('attn-ref-');
  const spec = join(dir, 'run.attn.json');
  writeFileSync(spec, '{\n  "attention": { "file": "runs/run1.npz", "tensor": "t" },\n  "tokens": ["The", "cat"]\n}');
  mkdirSync(join(dir, 'runs'));
  writeFileSync(join(dir, 'runs', 'run1.npz'), '');
  const s = io();
  const t = modelTarget(spec, {}, s.io);
  assert.ok(typeof t !== 'number', s.err.join('\n'));
  assert.equal(t.path, join(dir, 'runs', 'run1.npz'));
  assert.deepEqual(t.options, { tensor: 't', tokens: ['The', 'cat'] });
  // --tensor wins over the spec's.
  const over = modelTarget(spec, { tensor: 'other' }, io().io);
  assert.ok(typeof over !== 'number');
  assert.equal(over.options.tensor, 'other');
  // A problem with the file is placed on "file"; a token count that does not match, on "tokens".
  assert.equal(t.place('cannot open (ENOENT)'), `${spec}:2:26: attention.file: cannot open (ENOENT)`);
  assert.equal(t.place('2 token(s) given, but the attention is 3 × 3'), `${spec}:3:13: tokens: 2 token(s) given, but the attention is 3 × 3`);
});

test('modelTarget: a spec that computes its own attention is its computed input; a model spec is exit 2; a broken spec is exit 1 with its problems', () => {
  const dir = tempDir('attn-ref-');
  const own = join(dir, 'own.attn.json');
  writeFileSync(own, JSON.stringify({ embeddings: { a: [1], b: [2] }, inputs: [{ name: 'one', tokens: ['a'] }, { name: 'two', tokens: ['a', 'b'] }] }));
  const s = io();
  const target = modelTarget(own, { input: 1 }, s.io);
  assert.ok(typeof target === 'object' && target.computed, 'a computed source');
  assert.deepEqual([target.computed.layers, target.computed.heads, target.computed.n, target.computed.tokens], [1, 1, 2, ['a', 'b']]);
  assert.deepEqual(s.err, []);
  const past = io();
  assert.equal(modelTarget(own, { input: 2 }, past.io), 2);
  assert.deepEqual(past.err, [`attn: --input 2: ${own} has 2 input(s), counted from 0`]);
  const model = join(dir, 'model.attn.json');
  writeFileSync(model, JSON.stringify({ model: 'gpt2', text: 'The cat' }));
  const m = io();
  assert.equal(modelTarget(model, {}, m.io), 2);
  assert.deepEqual(m.err, [`attn: ${model} runs a model on a text; give its folder and text to attn run`]);
  const bad = join(dir, 'bad.attn.json');
  writeFileSync(bad, '{"attention": {"file": "../up.npy"}}');
  const b = io();
  assert.equal(modelTarget(bad, {}, b.io), 1);
  assert.equal(b.err.length, 1);
  assert.match(b.err[0], new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:24: attention.file: `));
});

test('attn inspect on a spec that computes its own attention gives the statistics of the same weights saved as a file with the same tokens', async () => {
  const dir = tempDir('attn-own-');
  const spec = join(dir, 'mouse.attn.json');
  writeFileSync(spec, readFileSync(join(ROOT, 'examples', 'multi-head-causal.attn.json')));
  const own = await attn('inspect', spec, '--json');
  assert.equal(own.code, 0, own.err);
  const json = JSON.parse(own.out) as InspectJson;
  // The same weights (float64) and tokens through an attention file the spec references.
  const { data } = analyze(readFileSync(spec, 'utf8'));
  const input = data!.inputs[0];
  const n = input.tokens.length, heads = input.heads.length;
  const weights = Buffer.alloc(heads * n * n * 8);
  input.heads.forEach((h, k) => h.weights.data.forEach((w, c) => weights.writeDoubleLE(w, (k * n * n + c) * 8)));
  writeFileSync(join(dir, 'saved.npy'), npyBytes(npyDict('<f8', [heads, n, n]), weights));
  writeFileSync(join(dir, 'saved.attn.json'), JSON.stringify({ attention: { file: 'saved.npy' }, tokens: [...input.tokens] }));
  const saved = await attn('inspect', join(dir, 'saved.attn.json'), '--json');
  assert.equal(saved.code, 0, saved.err);
  const file = JSON.parse(saved.out) as InspectJson;
  assert.deepEqual([json.layers, json.heads, json.tokens, json.dtype], [1, heads, n, 'F64']);
  assert.ok(heads > 1);
  assert.deepEqual(json.tokenTexts, file.tokenTexts);
  assert.deepEqual(json.stats, file.stats);
  assert.deepEqual(json.rollout, file.rollout);
});

test('inspect takes exactly one file (exit 2), and a missing referenced file is placed in the spec (exit 1)', async () => {
  const none = await attn('inspect');
  assert.equal(none.code, 2);
  assert.equal(none.err, 'attn inspect: name exactly one .safetensors, .npy or .npz file, or a spec that references one');
  assert.equal((await attn('inspect', 'a.npy', 'b.npy')).code, 2);
  const dir = tempDir('attn-ref-');
  const spec = join(dir, 'run.attn.json');
  writeFileSync(spec, '{"attention": {"file": "missing.npy"}}');
  const r = await attn('inspect', spec);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, new RegExp(`^${spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:24: attention.file: missing\\.npy: no such file beside the spec$`));
});

test('attn inspect - reads the model file from standard input, as the usage says FILE may be (it said ENOENT)', () => {
  const dir = tempDir('attn-stdin-');
  const file = join(dir, 'run.safetensors');
  writeSafetensors(file, randomAttention(1, 2, 3), 1, 2, 3, ['a', 'b', 'c']);
  const viaStdin = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'inspect', '-', '--json'], { cwd: ROOT, input: readFileSync(file), encoding: 'utf8', timeout: 30_000 });
  assert.equal(viaStdin.status, 0, viaStdin.stderr);
  const json = JSON.parse(viaStdin.stdout) as InspectJson;
  assert.equal(json.file, 'standard input');
  assert.deepEqual([json.layers, json.heads, json.tokens], [1, 2, 3]);
  assert.deepEqual(json.tokenTexts, ['a', 'b', 'c']);
  const garbage = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'inspect', '-'], { cwd: ROOT, input: Buffer.from('not a tensor file at all'), encoding: 'utf8', timeout: 30_000 });
  assert.equal(garbage.status, 1);
  assert.match(garbage.stderr, /^standard input: /);
});

test('attn inspect FILE.npy --tensor NAME: an .npy holds one unnamed array, so the name is refused, not ignored', async () => {
  const dir = tempDir('attn-npy-');
  const file = join(dir, 'run.npy');
  writeFileSync(file, npyBytes(npyDict('<f4', [1, 1, 2, 2]), Buffer.from(new Float32Array([1, 0, 0.5, 0.5]).buffer)));
  assert.equal((await attn('inspect', file)).code, 0, 'the file itself opens');
  const r = await attn('inspect', file, '--tensor', 'nope');
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /run\.npy: an \.npy file holds one unnamed array, so there is no tensor "nope" in it; leave out "tensor"$/);
  assert.equal(r.err.split('\n').length, 1);
});

/** A safetensors file of one tensor per layer, named layers.K.attn for each K of `numbers`: 2 heads of 3 × 3 each. */
function layeredSafetensors(file: string, numbers: number[]): void {
  const body = Buffer.from(new Float32Array(Array.from({ length: 2 * 9 }, (_, i) => [1, 0, 0, 0.5, 0.5, 0, 0.25, 0.25, 0.5][i % 9])).buffer);
  const header: Record<string, unknown> = { __metadata__: { tokens: JSON.stringify(['a', 'b', 'c']) } };
  numbers.forEach((k, i) => { header[`layers.${k}.attn`] = { dtype: 'F32', shape: [2, 3, 3], data_offsets: [i * body.length, (i + 1) * body.length] }; });
  const json = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(json.length));
  writeFileSync(file, Buffer.concat([size, json, ...numbers.map(() => body)]));
}

test('a file whose layers are numbered 0 and 5: inspect shows 0 and 5, --json gives them, and the note says how --layer and the grid count', async () => {
  const file = join(tempDir('attn-layers-'), 'run.safetensors');
  layeredSafetensors(file, [5, 0]);
  const text = await attn('inspect', file);
  assert.equal(text.code, 0, text.err);
  const rows = text.out.split('\n').filter((l) => /^\s+\d+\s+\d+\s/.test(l)).map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '));
  assert.deepEqual(rows, ['0 0', '0 1', '5 0', '5 1']);
  assert.match(text.err, /warning: the file numbers its layers 0, 5 \(with gaps\): .* \(--layer 0 and L1 are its 0, --layer 1 and L2 are its 5\)$/);
  const json = JSON.parse((await attn('inspect', file, '--json')).out) as InspectJson;
  assert.deepEqual(json.layerNumbers, [0, 5]);
  assert.deepEqual(json.stats.map((s) => s.layer), [0, 0, 1, 1], 'the statistics count places, as --layer does');
  layeredSafetensors(file, [0, 1]);
  assert.equal((JSON.parse((await attn('inspect', file, '--json')).out) as InspectJson).layerNumbers, undefined, 'layers 0, 1: nothing to say');
});
