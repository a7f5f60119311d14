// attn run --json's budget of printed numbers (src/cli/model/run-model.ts): the refusal names the most
// tokens whose attention, layers × heads × n² weights, fits — the number a user can pass as
// --max-tokens and be run — as the memory budget's refusal does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonRefusal, jsonTokens } from '../../../../src/cli/model/run-model.js';
import { seeded } from '../../../support/random.js';

test('Llama-3.2-1B\'s 16 × 32 heads: 176 tokens print, 177 are refused naming 176', () => {
  assert.equal(jsonRefusal(16, 32, 176), undefined);
  assert.equal(jsonRefusal(16, 32, 177), 'attn run --json\'s output of 16 layers × 32 heads × 177² weights needs 16.0 million numbers, over the budget of 16.0 million: use --max-tokens 176 or fewer, or --out FILE.safetensors without --json');
});

test('seeded shapes: the number named fits and one more does not', () => {
  const r = seeded(177);
  for (let i = 0; i < 500; i++) {
    const layers = 1 + Math.floor(r() * 128), heads = 1 + Math.floor(r() * 128), n = 1 + Math.floor(r() * 5000);
    const fits = jsonTokens(layers, heads);
    assert.equal(jsonRefusal(layers, heads, fits), undefined, `${layers} × ${heads}: ${fits} fits`);
    assert.notEqual(jsonRefusal(layers, heads, fits + 1), undefined, `${layers} × ${heads}: ${fits + 1} does not`);
    const said = jsonRefusal(layers, heads, n);
    if (n > fits) assert.match(said ?? '', new RegExp(`use --max-tokens ${fits} or fewer`), `${layers} × ${heads} × ${n}`);
    else assert.equal(said, undefined);
  }
  // So many heads that not one token's attention fits: --out is the way.
  assert.match(jsonRefusal(4096, 4096, 1) ?? '', /: use --out FILE\.safetensors without --json$/);
});
