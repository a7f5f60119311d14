// `attn run` on the rotary decoders' tiny checkpoints (test/reference/families/rotary.py writes them
// with each family's real published config.json keys, sizes shrunk: Llama 3.2's llama3 rope_scaling,
// linear and dynamic scaling, Mistral's and Qwen2's sliding windows, Qwen3's q/k norms and
// layer_types), against the same script's independent float64 PyTorch forward: every weight of
// attn run --json (float32) to 1e-6, the five next tokens and their p to 1e-9. The dynamic case's
// text is longer than its max_position_embeddings and runs without --max-tokens; the summary names
// the family. Without torch this test fails (it never skips).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attn } from '../../../support/cli.js';
import { ROOT } from '../../../support/paths.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'reference', 'families', 'rotary.py');
const TEXT = 'the cat sat on the mat. the cat ate the rat. a mouse ran to the house; the dog sat in the fog.';
let root = '';
let cases: string[] = [];

function python(...args: string[]): string {
  const r = spawnSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${SCRIPT} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

before(() => {
  const probe = spawnSync(PYTHON, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `this test needs PyTorch and numpy for ${PYTHON}: ${probe.error?.message ?? probe.stderr}`);
  root = mkdtempSync(join(tmpdir(), 'attn-rotary-cli-'));
  cases = JSON.parse(python('generate', root)) as string[];
});
after(() => { if (root) rmSync(root, { recursive: true, force: true }); });

interface RunJson {
  model: { type: string; layers: number; heads: number; kvHeads: number; headDim: number };
  ids: number[];
  attention: number[][][][];
  next: { id: number; token: string; p: number }[];
}

test('attn run --json on every rotary case agrees with the float64 PyTorch forward: weights to 1e-6, the next five tokens\' p to 1e-9', async () => {
  assert.deepEqual(cases, ['llama-dynamic', 'llama-linear', 'llama3-scaled', 'mistral-window', 'qwen2-window', 'qwen2.5', 'qwen3', 'qwen3-layer-types']);
  const ours: RunJson[] = [];
  for (const name of cases) {
    const r = await attn('run', join(root, name), '--text', TEXT, '--json', '--precision', 'f64');
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    ours.push(JSON.parse(r.out) as RunJson);
  }
  const request = join(root, 'request.json');
  writeFileSync(request, JSON.stringify(cases.map((name, i) => ({ dir: join(root, name), ids: ours[i].ids }))));
  const theirs = JSON.parse(python('forward', request)) as { attention: number[][][][]; probs: number[] }[];
  cases.forEach((name, c) => {
    const a = ours[c], t = theirs[c], n = a.ids.length;
    const config = JSON.parse(readFileSync(join(root, name, 'config.json'), 'utf8')) as { model_type: string; max_position_embeddings: number };
    assert.equal(a.model.type, config.model_type);
    assert.ok(n > 24, `${name}: ${n} tokens`);
    if (name === 'llama-dynamic') assert.ok(n > config.max_position_embeddings, `${n} tokens, past L0 ${config.max_position_embeddings}`);
    let worst = 0;
    a.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((w, j) => {
      worst = Math.max(worst, Math.abs(w - t.attention[l][h][i][j]));
    }))));
    assert.equal(a.attention.length, t.attention.length);
    assert.ok(worst < 1e-6, `${name}: a weight differs from torch's by ${worst}`);
    const order = t.probs.map((p, id) => ({ p, id })).sort((x, y) => y.p - x.p).slice(0, 5);
    assert.deepEqual(a.next.map((x) => x.id), order.map((x) => x.id), name);
    a.next.forEach((x, i) => assert.ok(Math.abs(x.p - order[i].p) < 1e-9, `${name}: next ${x.id} p ${x.p} vs torch ${order[i].p}`));
  });
  assert.equal(ours[cases.indexOf('qwen3')].model.headDim, 16);
});

test('the summary names the family and its key/value heads; a yarn rope_scaling is refused in one line naming config.json and the key', async () => {
  const r = await attn('run', join(root, 'qwen3'), '--text', TEXT);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /qwen3, 2 layers × 4 heads \(2 key\/value heads\), d_model 32/);
  const dir = join(root, 'llama3-scaled');
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8192 } }));
  const yarn = await attn('run', dir, '--text', TEXT);
  assert.equal(yarn.code, 1);
  assert.equal(yarn.out, '');
  assert.match(yarn.err, /^config\.json: "rope_scaling": \{"rope_type":"yarn",.*\} is not supported \(attn computes the rope_type default, linear, dynamic and llama3; "yarn" is not implemented\)$/);
});
