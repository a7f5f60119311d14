// The rotary decoders against an independent float64 PyTorch forward (test/reference/families/rotary.py,
// /usr/bin/python3 with Debian's python3-torch, no transformers library), on tiny checkpoints it
// writes with each family's real published config.json keys, sizes shrunk: Llama 3.2 1B's llama3
// rope_scaling, Vicuna 16k's linear one, a dynamic one run past max_position_embeddings, Mistral 7B
// with a window shorter than the text, Qwen2.5 0.5B as published and with its window layers on,
// Qwen3 0.6B (q/k norms, head_dim given) as published and with layer_types. Every layer's and head's
// float64 attention weight and the five most likely next tokens' probabilities agree to 1e-9, the
// run's float32 weights to 1e-6; a key outside a sliding layer's window has weight exactly 0. Each
// scaling changes the numbers (plain RoPE on the same tensors differs), and dynamic only past L0.
// The lens on a real head of each reproduces its weights, and its spec's mask hides what the window hides.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModelFolder } from '../../../../../src/core/checkpoint-files/model-folder.js';
import { lensSpec } from '../../../../../src/core/checkpoint-spec/lens-spec.js';
import { attentionOf } from '../../../../../src/core/checkpoint/families/shared/family.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel, runText, type LoadedModel } from '../../../../../src/core/checkpoint/model.js';
import { tokenizerFrom } from '../../../../../src/core/tokenizer/index.js';
import { ROOT } from '../../../../support/paths.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'reference', 'families', 'rotary.py');
const TEXT = 'the cat sat on the mat. the cat ate the rat. a mouse ran to the house; the dog sat in the fog.';
const CASES = ['llama-dynamic', 'llama-linear', 'llama3-scaled', 'mistral-window', 'qwen2-window', 'qwen2.5', 'qwen3', 'qwen3-layer-types'];
let root = '';

function python(...args: string[]): string {
  const r = spawnSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${SCRIPT} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

before(() => {
  const probe = spawnSync(PYTHON, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `this test needs PyTorch and numpy for ${PYTHON}: ${probe.error?.message ?? probe.stderr}`);
  root = mkdtempSync(join(tmpdir(), 'attn-rotary-'));
  assert.deepEqual(JSON.parse(python('generate', root)), CASES);
});
after(() => { if (root) rmSync(root, { recursive: true, force: true }); });

interface Ours {
  model: LoadedModel;
  ids: number[];
  /** [layer][head · n · n], float64 as the block computed them. */
  exact: Float64Array[];
  /** The run's float32 weights. */
  run: Float32Array[];
  probs: Float64Array;
  tokens: string[];
}

function softmax(logits: Float64Array): Float64Array {
  const top = logits.reduce((a, b) => Math.max(a, b), -Infinity);
  const e = logits.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** The case run by our forward pass (its config rewritten by `edit`, its tensors as written); `use` sees it while its files are open. */
function ours(name: string, edit?: (config: Record<string, unknown>) => void, use?: (o: Ours) => void): Ours {
  const folder = readModelFolder(join(root, name));
  try {
    const config = JSON.parse(folder.configText) as Record<string, unknown>;
    edit?.(config);
    const model = loadModel(JSON.stringify(config), folder.tensors, { precision: 'f64' });
    const run = runText(model, tokenizerFrom(folder.tokenizerFiles), TEXT);
    const c = model.config;
    const exact = Array.from({ length: c.layers }, (_, layer) => forward(c, model.names, model.weights, run.ids, { precision: 'f64', capture: { layer, stop: true } }).captured!.weights);
    const probs = softmax(forward(c, model.names, model.weights, run.ids, { precision: 'f64' }).logits);
    const result = { model, ids: run.ids, exact, run: run.attention, probs, tokens: run.tokens };
    use?.(result);
    return result;
  } finally {
    folder.close();
  }
}

function theirs(runs: { dir: string; ids: number[] }[]): { attention: number[][][][]; probs: number[] }[] {
  const request = join(root, `request-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(request, JSON.stringify(runs));
  return JSON.parse(python('forward', request)) as { attention: number[][][][]; probs: number[] }[];
}

const top5 = (p: ArrayLike<number>) => Array.from(p, (v, id) => ({ v, id })).sort((a, b) => b.v - a.v || a.id - b.id).slice(0, 5);

test('every case: each layer\'s and head\'s weights to 1e-9 (float64) and 1e-6 (the run\'s float32), the top five next tokens\' p to 1e-9', () => {
  const mine = CASES.map((name) => ours(name));
  const ref = theirs(CASES.map((name, i) => ({ dir: join(root, name), ids: mine[i].ids })));
  CASES.forEach((name, at) => {
    const o = mine[at], t = ref[at], c = o.model.config, n = o.ids.length;
    assert.ok(n > 24, `${name}: ${n} tokens`);
    assert.equal(t.attention.length, c.layers, name);
    let worst = 0, worst32 = 0;
    for (let layer = 0; layer < c.layers; layer++) {
      assert.equal(t.attention[layer].length, c.heads);
      for (let head = 0; head < c.heads; head++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const want = t.attention[layer][head][i][j], cell = head * n * n + i * n + j;
            worst = Math.max(worst, Math.abs(o.exact[layer][cell] - want));
            worst32 = Math.max(worst32, Math.abs(o.run[layer][cell] - want));
          }
        }
      }
    }
    assert.ok(worst < 1e-9, `${name}: a float64 weight differs from torch's by ${worst}`);
    assert.ok(worst32 < 1e-6, `${name}: a float32 weight differs from torch's by ${worst32}`);
    const want = top5(t.probs), got = top5(o.probs);
    assert.deepEqual(got.map((x) => x.id), want.map((x) => x.id), `${name}: the five most likely next tokens`);
    got.forEach((x, k) => assert.ok(Math.abs(x.v - want[k].v) < 1e-9, `${name}: next ${x.id} p ${x.v} vs torch ${want[k].v}`));
  });
});

test('sliding layers: a key further back than the window has weight exactly 0 (in torch too); full layers see every earlier key', () => {
  const expected: Record<string, (number | undefined)[]> = {
    'mistral-window': [5, 5], 'qwen2-window': [undefined, 6, 6], 'qwen2.5': [undefined, undefined],
    qwen3: [undefined, undefined], 'qwen3-layer-types': [4, undefined, 4],
  };
  const names = Object.keys(expected);
  const mine = names.map((name) => ours(name));
  const ref = theirs(names.map((name, i) => ({ dir: join(root, name), ids: mine[i].ids })));
  names.forEach((name, at) => {
    const o = mine[at], c = o.model.config, n = o.ids.length;
    expected[name].forEach((window, layer) => {
      const kind = attentionOf(c, layer);
      assert.deepEqual(kind, window === undefined ? { kind: 'causal' } : { kind: 'sliding', window }, `${name} layer ${layer}`);
      const seen = (i: number, j: number) => j <= i && (window === undefined || j > i - window);
      let beyond = 0;
      for (let head = 0; head < c.heads; head++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const w = o.run[layer][head * n * n + i * n + j];
            if (!seen(i, j)) {
              assert.ok(Object.is(w, 0), `${name} layer ${layer} head ${head} (${i}, ${j}): ${w}`);
              assert.equal(ref[at].attention[layer][head][i][j], 0);
            } else if (window === undefined && j < i - 6) beyond = Math.max(beyond, w);
          }
        }
      }
      // A full layer really uses keys further back than any window here (the test could not tell otherwise).
      if (window === undefined) assert.ok(beyond > 1e-6, `${name} layer ${layer}: ${beyond}`);
    });
  });
});

test('each scaling changes the run: plain RoPE on the same tensors differs; dynamic equals plain up to L0 and differs past it', () => {
  const plain = (config: Record<string, unknown>) => { delete config.rope_scaling; };
  const most = (a: Ours, b: Ours) => a.run.reduce((m, layer, l) => layer.reduce((mm, v, k) => Math.max(mm, Math.abs(v - b.run[l][k])), m), 0);
  for (const name of ['llama3-scaled', 'llama-linear', 'llama-dynamic']) {
    const scaled = ours(name), unscaled = ours(name, plain);
    assert.ok(scaled.model.config.ropeScaling, name);
    assert.ok(most(scaled, unscaled) > 1e-3, `${name}: scaling changed no weight by 1e-3`);
  }
  // Within L0 = max_position_embeddings 16, dynamic is the default RoPE, bit for bit.
  const folder = readModelFolder(join(root, 'llama-dynamic'));
  try {
    const config = JSON.parse(folder.configText) as Record<string, unknown>;
    const ids = ours('llama-dynamic').ids.slice(0, 16);
    const dynamic = loadModel(folder.configText, folder.tensors, { precision: 'f64' });
    plain(config);
    const unscaled = loadModel(JSON.stringify(config), folder.tensors, { precision: 'f64' });
    const a = forward(dynamic.config, dynamic.names, dynamic.weights, ids, { precision: 'f64' }), b = forward(unscaled.config, unscaled.names, unscaled.weights, ids, { precision: 'f64' });
    a.attention.forEach((layer, l) => assert.deepEqual(layer, b.attention[l]));
    assert.deepEqual(a.logits, b.logits);
    // A kept run of 16 tokens is not reused by a run of 30: the keys were rotated by other frequencies.
    const kept = forward(dynamic.config, dynamic.names, dynamic.weights, ids, { precision: 'f64', keep: true }).kept!;
    const longer = ours('llama-dynamic').ids;
    const reused = forward(dynamic.config, dynamic.names, dynamic.weights, longer, { precision: 'f64', reuse: kept });
    const fresh = forward(dynamic.config, dynamic.names, dynamic.weights, longer, { precision: 'f64' });
    assert.equal(reused.reused, 0);
    reused.attention.forEach((layer, l) => assert.deepEqual(layer, fresh.attention[l]));
  } finally {
    folder.close();
  }
});

test('the lens on a real head of each case: its q and k give the run\'s weights; a sliding head\'s spec masks the keys its window hides', () => {
  for (const name of CASES) ours(name, undefined, (o) => {
    const c = o.model.config, n = o.ids.length;
    const layer = c.layers - 1, head = c.heads - 1;
    const lens = headLens(o.model, o.ids, o.tokens, layer, head);
    const kind = attentionOf(c, layer);
    assert.equal(lens.window, kind.kind === 'sliding' ? kind.window : undefined, name);
    assert.equal(lens.rotary, true);
    const D = lens.headDim;
    for (let i = 0; i < n; i++) {
      const scores = Array.from({ length: n }, (_, j) => {
        if (j > i || (lens.window !== undefined && j <= i - lens.window)) return -Infinity;
        let s = 0;
        for (let t = 0; t < D; t++) s += lens.q[i * D + t] * lens.k[j * D + t];
        return s / lens.scale;
      });
      const top = Math.max(...scores);
      const e = scores.map((s) => (s === -Infinity ? 0 : Math.exp(s - top)));
      const sum = e.reduce((a, b) => a + b, 0);
      e.forEach((v, j) => assert.ok(Math.abs(v / sum - o.exact[layer][head * n * n + i * n + j]) < 1e-12, `${name} (${i}, ${j})`));
    }
    const { spec } = lensSpec(lens, { tensorFile: 'lens.safetensors' });
    const mask = (spec.inputs as { mask?: number[][] }[])[0].mask;
    if (lens.window === undefined) assert.equal(mask, undefined, name);
    else for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(mask![i][j], j <= i && j > i - lens.window ? 1 : 0, `${name} mask (${i}, ${j})`);
  });
});
