// `attn run --json` over its printing budget (layers × heads × n² weights) is refused in words that
// name attn run, the command the user typed, and the way out (--max-tokens, or --out without
// --json); never "attn compute", whose budget it shares. A seeded family of model shapes and texts
// just past the budget.
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

test('attn run --json past its budget names attn run and what to do, for every shape (seeded family)', async () => {
  const root = tempDir('attn-run-budget-');
  const rand = seeded(20261133);
  for (let c = 0; c < 5; c++) {
    const layers = between(rand, 1, 6), heads = between(rand, 1, 8);
    // Byte-level tokens, one per character: just past the budget.
    const n = Math.floor(Math.sqrt(PRINTED.max / (layers * heads))) + between(rand, 1, 40);
    const dir = wideGpt2(join(root, `m${c}`), layers, heads);
    const r = await attn('run', dir, '--text', 'x'.repeat(n), '--json');
    const what = `${layers} layers × ${heads} heads × ${n}²: ${r.err}`;
    assert.equal(r.code, 1, what);
    assert.equal(r.out, '', what);
    assert.match(r.err, new RegExp(`^attn run --json's output of ${layers} layers × ${heads} heads × ${n}² weights needs [\\d.]+ million numbers, over the budget of 16\\.0 million: use --max-tokens (\\d+) or fewer, or --out FILE\\.safetensors without --json$`), what);
    // The number named is the most tokens that fit.
    const fits = Number(/--max-tokens (\d+)/.exec(r.err)![1]);
    assert.ok(layers * heads * fits ** 2 <= PRINTED.max && layers * heads * (fits + 1) ** 2 > PRINTED.max, what);
    assert.doesNotMatch(r.err, /attn compute/, what);
  }
});
