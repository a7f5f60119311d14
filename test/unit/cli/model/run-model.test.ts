// `attn run` (src/cli/model/run-model.ts) against an independent PyTorch forward pass
// (test/reference/torch_forward.py, Debian's python3-torch, no transformers library): tiny random
// checkpoints for every architecture and layout the runner reads (gpt2 plain names; gpt2 with the
// transformer. prefix, its own lm_head and the legacy attn.bias buffers, F16; gpt2 with vocab.json +
// merges.txt, BF16; llama MHA; llama GQA with head_dim given, BF16, three shards; qwen2 with q/k/v
// biases and a tied head, F16, two shards) run through `attn run --json` in-process, then the same
// ids through torch: every attention weight and every next token's probability agree to 1e-4.
// Then --out read back by `attn inspect`, and the folders that cannot run: exit 1, one line naming
// the file or tensor. Without torch this test fails (it never skips): CI installs python3-torch.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attn } from '../../../support/cli.js';
import { ROOT } from '../../../support/paths.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'reference', 'torch_forward.py');
const TEXT = 'the cat sat on the mat. the cat';
let root = '';
let cases: string[] = [];

function python(...args: string[]): string {
  const r = spawnSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${SCRIPT} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

before(() => {
  const probe = spawnSync(PYTHON, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `this test needs PyTorch and numpy for ${PYTHON} (Debian's python3-torch and python3-numpy; scripts/setup.mjs --for test installs them): ${probe.error?.message ?? probe.stderr}`);
  root = mkdtempSync(join(tmpdir(), 'attn-'));
  cases = JSON.parse(python('generate', root)) as string[];
});
after(() => { if (root) rmSync(root, { recursive: true, force: true }); });

interface RunJson {
  model: Record<string, unknown>;
  ids: number[]; pieces: string[]; tokens: string[];
  attention: number[][][][];
  next: { id: number; token: string; p: number }[];
  timings: Record<string, number>;
}

test('every architecture and layout: attn run --json agrees with the PyTorch forward pass to 1e-4 (every weight, the next tokens\' p)', async () => {
  assert.deepEqual(cases, ['gpt2-plain', 'gpt2-prefix', 'gpt2-vocab', 'llama-gqa', 'llama-mha', 'qwen2']);
  const ours: RunJson[] = [];
  for (const name of cases) {
    const r = await attn('run', join(root, name), '--text', TEXT, '--json');
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    ours.push(JSON.parse(r.out) as RunJson);
  }
  const request = join(root, 'request.json');
  writeFileSync(request, JSON.stringify(cases.map((name, i) => ({ dir: join(root, name), ids: ours[i].ids }))));
  const theirs = JSON.parse(python('forward', request)) as { attention: number[][][][]; probs: number[] }[];
  cases.forEach((name, c) => {
    const a = ours[c], t = theirs[c];
    const n = a.ids.length;
    assert.ok(n >= 10, `${name}: ${n} tokens`);
    assert.deepEqual(Object.keys(a.model), ['type', 'layers', 'heads', 'kvHeads', 'dModel', 'headDim', 'vocab', 'precision']);
    assert.equal(a.model.precision, 'f32');
    assert.deepEqual(Object.keys(a.timings), ['loadMs', 'tokenizeMs', 'forwardMs']);
    assert.equal(a.attention.length, t.attention.length, `${name}: layers`);
    let worst = 0;
    a.attention.forEach((layer, l) => {
      assert.equal(layer.length, t.attention[l].length, `${name}: heads in layer ${l}`);
      layer.forEach((head, h) => head.forEach((row, i) => {
        assert.equal(row.length, n);
        row.forEach((w, j) => { worst = Math.max(worst, Math.abs(w - t.attention[l][h][i][j])); });
      }));
    });
    assert.ok(worst < 1e-4, `${name}: an attention weight differs from torch's by ${worst}`);
    // The five most likely next tokens: torch's five, with torch's probabilities.
    const order = t.probs.map((p, id) => ({ p, id })).sort((x, y) => y.p - x.p).slice(0, 5);
    assert.equal(a.next.length, 5);
    a.next.forEach((next, i) => {
      assert.ok(Math.abs(next.p - t.probs[next.id]) < 1e-4, `${name}: next ${next.id} p ${next.p} vs torch ${t.probs[next.id]}`);
      assert.ok(Math.abs(next.p - order[i].p) < 1e-4, `${name}: the ${i + 1}th most likely p ${next.p} vs torch ${order[i].p}`);
    });
  });
  // The models do differ (a test that compares a constant would pass anything).
  assert.notDeepEqual(ours[0].attention, ours[1].attention);
  assert.equal(ours[3].model.kvHeads, 2);
  assert.equal(ours[3].model.headDim, 8);
});

test('--out writes [layers, heads, n, n] F32 with the tokens, which attn inspect reads back; the summary without --json', async () => {
  const out = join(root, 'run.safetensors');
  const r = await attn('run', join(root, 'llama-gqa'), '--text', TEXT, '--out', out, '--max-tokens', '7');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /llama, 3 layers × 4 heads \(2 key\/value heads\)/);
  assert.match(r.out, /^7 tokens: /m);
  assert.match(r.out, /^next: (".*" \d\.\d{4}(, )?){5}$/m);
  assert.match(r.out, /^load \d+ ms, tokenize \d+ ms, forward \d+ ms$/m);
  const inspect = await attn('inspect', out, '--json');
  assert.equal(inspect.code, 0, inspect.err);
  const json = JSON.parse(inspect.out) as { dtype: string; layers: number; heads: number; tokens: number; tokenTexts: string[] };
  assert.deepEqual([json.dtype, json.layers, json.heads, json.tokens], ['F32', 3, 4, 7]);
  const again = JSON.parse((await attn('run', join(root, 'llama-gqa'), '--text', TEXT, '--max-tokens', '7', '--json')).out) as RunJson;
  assert.deepEqual(json.tokenTexts, again.tokens);
  // The file's numbers are the run's.
  const bytes = readFileSync(out);
  const headerSize = Number(bytes.readBigUInt64LE(0));
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 8 + headerSize, bytes.byteOffset + bytes.length));
  assert.equal(data.length, 3 * 4 * 7 * 7);
  assert.equal(data[(2 * 4 + 3) * 49 + 6 * 7 + 2], Math.fround(again.attention[2][3][6][2]));
});

test('usage errors exit 2: no folder, no text or both, a bad --max-tokens or --precision, --out onto an input', async () => {
  const dir = join(root, 'gpt2-plain');
  for (const argv of [['run', '--text', 'x'], ['run', dir], ['run', dir, '--text', 'x', '--text-file', 'y'], ['run', dir, '--text', 'x', '--max-tokens', '0'], ['run', dir, '--text', 'x', '--out', join(dir, 'model.safetensors')], ['run', dir, '--text', 'x', '--precision', 'f16']]) {
    const r = await attn(...argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
    assert.match(r.err, /^attn run: [^\n]+\n?$/);
  }
  assert.equal((await attn('run', dir, '--text', 'x', '--precision', 'f16')).err.trim(), 'attn run: --precision must be one of f32, f64');
  assert.equal(readFileSync(join(dir, 'model.safetensors')).length > 1000, true);
});

/** A copy of a generated case, changed by `edit`, and attn run's exit code and message on it. */
async function broken(name: string, edit: (dir: string) => void, ...extra: string[]) {
  const dir = join(root, `broken-${Math.random().toString(36).slice(2)}`);
  cpSync(join(root, name), dir, { recursive: true });
  edit(dir);
  const r = await attn('run', dir, '--text', TEXT, ...extra);
  return { ...r, dir };
}

function oneLine(r: { code: number; err: string; out: string }, pattern: RegExp) {
  assert.equal(r.code, 1, r.err);
  assert.equal(r.out, '');
  assert.equal(r.err.split('\n').length, 1, r.err);
  assert.doesNotMatch(r.err, /\n\s+at /);
  assert.match(r.err, pattern);
}

test('a folder that cannot run: exit 1 and one line naming the file or tensor at fault', async () => {
  let r = await broken('gpt2-plain', (d) => unlinkSync(join(d, 'config.json')));
  oneLine(r, new RegExp(`${r.dir}/config\\.json: no such file`));
  r = await broken('gpt2-plain', (d) => writeFileSync(join(d, 'config.json'), JSON.stringify({ model_type: 't5', hidden_size: 16 })));
  oneLine(r, /config\.json: model_type "t5" is not supported/);
  r = await broken('llama-mha', (d) => writeFileSync(join(d, 'config.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')), rope_scaling: { rope_type: 'llama3', factor: 8 } })));
  oneLine(r, /config\.json: "rope_scaling": .* is not supported/);
  r = await broken('gpt2-plain', (d) => writeFileSync(join(d, 'config.json'), JSON.stringify({ model_type: 'gpt2', n_embd: 16, n_layer: 2, n_positions: 64, vocab_size: 300 })));
  oneLine(r, /config\.json: "n_head" is missing/);
  r = await broken('llama-gqa', (d) => unlinkSync(join(d, 'model-00002-of-00003.safetensors')));
  oneLine(r, /model-00002-of-00003\.safetensors: no such file, though model\.safetensors\.index\.json names it/);
  r = await broken('qwen2', (d) => truncateSync(join(d, 'model-00001-of-00002.safetensors'), 9000));
  oneLine(r, /model-00001-of-00002\.safetensors: .*truncated/);
  r = await broken('gpt2-plain', (d) => unlinkSync(join(d, 'tokenizer.json')));
  oneLine(r, /tokenizer\.json: no such file .*no tokenizer/);
  r = await broken('qwen2', (d) => {
    const index = join(d, 'model.safetensors.index.json');
    const json = JSON.parse(readFileSync(index, 'utf8')) as { weight_map: Record<string, string> };
    json.weight_map['model.norm.weight'] = '../model.safetensors';
    writeFileSync(index, JSON.stringify(json));
  });
  oneLine(r, /model\.safetensors\.index\.json: the shard of "model\.norm\.weight" is "\.\.\/model\.safetensors"; a shard must be a plain/);
  r = await broken('qwen2', (d) => {
    const index = join(d, 'model.safetensors.index.json');
    const json = JSON.parse(readFileSync(index, 'utf8')) as { weight_map: Record<string, string> };
    const shard = json.weight_map['model.norm.weight'];
    json.weight_map['model.norm.weight'] = shard === 'model-00001-of-00002.safetensors' ? 'model-00002-of-00002.safetensors' : 'model-00001-of-00002.safetensors';
    writeFileSync(index, JSON.stringify(json));
  });
  oneLine(r, /of-00002\.safetensors: tensor "model\.norm\.weight" is missing, though model\.safetensors\.index\.json puts it in this shard/);
  // A tensor whose shape disagrees with the config: n_inner says 32, the file's c_fc is 64 wide.
  r = await broken('gpt2-plain', (d) => writeFileSync(join(d, 'config.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')), n_inner: 32 })));
  oneLine(r, /model\.safetensors: tensor "h\.0\.mlp\.c_fc\.weight" has shape \[16, 64\] but config\.json implies \[16, 32\]/);
  r = await broken('gpt2-plain', () => undefined, '--max-tokens', '100');
  assert.equal(r.code, 0, r.err);
  const long = Array.from({ length: 40 }, () => TEXT).join(' ');
  const over = await attn('run', join(root, 'gpt2-plain'), '--text', long);
  oneLine(over, /more than the model's context length of 64: use --max-tokens/);
});
