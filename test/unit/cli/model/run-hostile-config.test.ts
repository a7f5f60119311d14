// attn run over a tiny Mistral checkpoint on disk whose config.json is drawn hostile: each of the keys
// the rotary families read set to what a typo, a bad conversion or an attacker writes, several at once,
// the model_type among them. Whatever it holds, the verdict is exit 0 with JSON holding no NaN (no
// null, which is how JSON.stringify writes one), or exit 1 with one line naming config.json or the
// weights' file, no stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { attn } from '../../../support/cli.js';
import { tempDir } from '../../../support/temp-dir.js';
import { tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { tinyTokenizerJson } from '../../../support/tiny-tokenizer.js';

// head_dim 64 over 4 heads: wide enough that a subnormal rope_theta overflows RoPE's top frequency.
const BASE = {
  model_type: 'mistral', hidden_size: 16, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 64, intermediate_size: 24,
  num_hidden_layers: 2, max_position_embeddings: 32, vocab_size: 300, tie_word_embeddings: true, rope_theta: 100, sliding_window: 3,
};
const ABSENT = Symbol('absent');
const VALUES: unknown[] = [ABSENT, null, 0, -1, 0.5, 1, 2, 3, 64, 1e300, 2 ** 53, 5e-324, 1e-320, 1e-300, 1e308, '8', 'true', true, false, [], {}];
const KEYS = ['sliding_window', 'rope_theta', 'rms_norm_eps', 'head_dim', 'num_key_value_heads', 'max_position_embeddings', 'use_sliding_window', 'rope_scaling', 'tie_word_embeddings', 'hidden_act'];
const TYPES: unknown[] = ['mistral', 'llama', 'qwen2', 'gpt2', '__proto__', 'constructor', ['mistral'], null];

test('attn run on hostile config.json values: JSON without NaN, or one line naming the file, exit 1', async () => {
  const dir = tempDir();
  const { tensors } = tinyCheckpoint(BASE, 1);
  writeFileSync(join(dir, 'model.safetensors'), writeSafetensors([...tensors.values()].map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    return { name: t.name, dtype: 'F32' as const, shape: t.shape, data: new Float32Array(t.source.read(t.offset, count * 4).slice().buffer) };
  })));
  writeFileSync(join(dir, 'tokenizer.json'), tinyTokenizerJson(300));
  const config = fc.record({
    // Mostly families whose tensors the file holds, so the run gets past the weights to the numbers.
    type: fc.oneof({ arbitrary: fc.constantFrom('mistral', 'llama'), weight: 6 }, { arbitrary: fc.constantFrom(...TYPES), weight: 1 }),
    changes: fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)), { minLength: 1, maxLength: 3 }),
  });
  await fc.assert(fc.asyncProperty(config, async ({ type, changes }) => {
    const json: Record<string, unknown> = { ...BASE, model_type: type };
    for (const [key, value] of changes) {
      if (value === ABSENT) delete json[key];
      else json[key] = value;
    }
    writeFileSync(join(dir, 'config.json'), JSON.stringify(json));
    const r = await attn('run', dir, '--text', 'the cat sat on the mat', '--json');
    if (r.code === 0) {
      assert.doesNotMatch(r.out, /null|NaN|Infinity/, JSON.stringify(json));
      return;
    }
    assert.equal(r.code, 1, `${JSON.stringify(json)}: ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err.split('\n').length, 1, r.err);
    assert.match(r.err, /^(config\.json: |.*model\.safetensors: |the text is (over )?\d+ tokens, more than the model's context length)/, r.err);
  }), { seed: 20261127, numRuns: 400 });
});
