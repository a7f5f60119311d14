// `attn run --json` over its printing budget (layers × heads × n² weights): a plain run keeps q and k
// and prints each head's statistics from its own pass ("heads", the same as a pass over the dense
// heads gives) in place of "attention"; a run with analyses, which read whole heads, is refused in
// words that name attn run, the command the user typed, and the way out (--max-tokens, or --out
// without --json); never "attn compute", whose budget it shares. Seeded shapes just past the budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attn } from '../../../support/cli.js';
import { writeTinyGpt2 } from '../../../support/tiny-folder.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { PRINTED } from '../../../../src/core/budget.js';
import { between, seeded } from '../../../support/random.js';
import { readModelFolder } from '../../../../src/core/checkpoint-files/model-folder.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { layersAttention } from '../../../../src/core/tensors/attention-source.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';
import { thumbOf } from '../../../../src/core/model-attention/scan.js';
import { runPictureSide } from '../../../../src/core/model-attention/qk-source.js';
import { tempDir } from '../../../support/temp-dir.js';

/** The tiny GPT-2 of tiny-folder.ts with more layers and heads and a long context. */
function wideGpt2(dir: string, layers: number, heads: number): string {
  writeTinyGpt2(dir);
  const config = { ...GPT2_CONFIG, n_layer: layers, n_head: heads, n_embd: heads * 2, n_positions: 4096, vocab_size: 261 };
  const { configText, tensors } = tinyCheckpoint(config, 3);
  const out = [...tensors.values()].map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    return { name: t.name, dtype: 'F32' as const, shape: t.shape, data: new Float32Array(t.source.read(t.offset, count * 4).slice().buffer) };
  });
  writeFileSync(join(dir, 'config.json'), configText);
  writeFileSync(join(dir, 'model.safetensors'), writeSafetensors(out));
  return dir;
}

test('attn run --json past its printing budget prints each head\'s statistics from the run\'s own pass in place of the heads (seeded family)', async () => {
  const root = tempDir('attn-run-budget-');
  const rand = seeded(20261133);
  for (let c = 0; c < 3; c++) {
    const layers = between(rand, 1, 6), heads = between(rand, 1, 8);
    // Byte-level tokens, one per character: just past the budget.
    const n = Math.floor(Math.sqrt(PRINTED.max / (layers * heads))) + between(rand, 1, 40);
    const dir = wideGpt2(join(root, `m${c}`), layers, heads);
    const r = await attn('run', dir, '--text', 'x'.repeat(n), '--json');
    const what = `${layers} layers × ${heads} heads × ${n}²: ${r.err}`;
    assert.equal(r.code, 0, what);
    const json = JSON.parse(r.out);
    assert.equal(json.attention, undefined, what);
    assert.deepEqual(json.kept, { attention: 'qk', where: 'memory', bytes: layers * n * 2 * heads * 2 * 4 }, what);
    // The statistics a pass over the dense run's heads gives, head for head.
    const folder = readModelFolder(dir);
    const m = loadModel(folder.configText, folder.tensors);
    const dense = forward(m.config, m.names, m.weights, json.ids);
    folder.close();
    const source = layersAttention('the run', dense.attention, heads, n, json.tokens);
    const pass = passOverHeads(source, { thumb: thumbOf(source).thumb, picture: runPictureSide(layers, heads, n) });
    assert.deepEqual(json.heads, JSON.parse(JSON.stringify(pass.stats)), what);
  }
});

test('attn run --json with an analysis past its printing budget names attn run and what to do', async () => {
  const layers = 2, heads = 3;
  const n = Math.floor(Math.sqrt(PRINTED.max / (2 * layers * heads))) + 5;
  const dir = wideGpt2(join(tempDir('attn-run-budget-'), 'm'), layers, heads);
  const r = await attn('run', dir, '--text', 'x'.repeat(n), '--json', '--norms');
  assert.equal(r.code, 1, r.err);
  assert.equal(r.out, '');
  assert.match(r.err, new RegExp(`^attn run --json's output of 2 × ${layers} layers × ${heads} heads × ${n}² weights and norms needs [\\d.]+ million numbers, over the budget of 16\\.0 million: use --max-tokens (\\d+) or fewer, or --out FILE\\.safetensors without --json$`));
  const fits = Number(/--max-tokens (\d+)/.exec(r.err)![1]);
  assert.ok(2 * layers * heads * fits ** 2 <= PRINTED.max && 2 * layers * heads * (fits + 1) ** 2 > PRINTED.max);
  assert.doesNotMatch(r.err, /attn compute/);
});
