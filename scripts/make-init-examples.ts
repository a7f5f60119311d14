// Writes the two examples whose weights are generated ("init") and whose embeddings are random, as
// the seeds' are ("512-D, random features"): standard normals from the core's seeded generator,
// rounded to 2 decimals, one word per line. Deterministic: the same files every run.
//   examples/seed-projection-512-64.attn.json  the seeds' 512 → 64 projection at full size
//   examples/init-four-rules.attn.json         one head per variance rule, side by side
//   node --import tsx scripts/make-init-examples.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRandom } from '../src/core/linalg/random.js';

function embeddings(words: readonly string[], dModel: number, seed: number): string[] {
  const random = createRandom(seed);
  const row = () => Array.from({ length: dModel }, () => Math.round(random.gaussian() * 100) / 100 || 0);
  return ['  "embeddings": {', ...words.map((w, i) => `    "${w}": [${row().join(', ')}]${i < words.length - 1 ? ',' : ''}`), '  },'];
}

const write = (name: string, lines: readonly string[]) => writeFileSync(join(__dirname, '..', 'examples', name), lines.join('\n') + '\n');

{
  const dModel = 512, dk = 64;
  const generated = (seed: number) => `{ "init": "xavier", "shape": [${dModel}, ${dk}], "seed": ${seed} }`;
  write('seed-projection-512-64.attn.json', [
    '{',
    `  "title": "The seeds' projection at full size: ${dModel}-D embeddings through W_Q, W_K, W_V of ${dModel} × ${dk}, generated (Xavier)",`,
    `  "description": "Each W holds ${dModel} × ${dk} = ${(dModel * dk).toLocaleString('en-US')} numbers, drawn with Var(W) = 2 / (${dModel} + ${dk}); × 8 heads × 6 blocks × 2 stacks = ${(dModel * dk * 8 * 6 * 2).toLocaleString('en-US')}. Embeddings: ${dModel} random features per word (made by scripts/make-init-examples.ts).",`,
    ...embeddings(['apple', 'orange', 'watch'], dModel, 1),
    '  "inputs": [{ "name": "apple orange watch", "tokens": ["apple", "orange", "watch"] }],',
    `  "heads": [{ "name": "${dModel} → ${dk}", "wq": ${generated(7)}, "wk": ${generated(8)}, "wv": ${generated(9)} }]`,
    '}',
  ]);
}

{
  const dModel = 32, dk = 8;
  const head = (name: string, init: string, seed: number) =>
    `    { "name": "${name}", "wq": { "init": ${init}, "shape": [${dModel}, ${dk}], "seed": ${seed} }, "wk": { "init": ${init}, "shape": [${dModel}, ${dk}], "seed": ${seed + 1} } }`;
  write('init-four-rules.attn.json', [
    '{',
    `  "title": "Four ways to draw W_Q and W_K (${dModel} × ${dk}): LeCun 1/d_in, Xavier 2/(d_in + d_out), Kaiming 2/d_in, and a fixed 0.0004",`,
    `  "description": "The same words through four heads whose weights differ only in variance: the larger Var(W), the larger the scores and the sharper the softmax. Embeddings: ${dModel} random features per word (made by scripts/make-init-examples.ts).",`,
    ...embeddings(['the', 'cat', 'sat', 'on', 'mat'], dModel, 2),
    '  "inputs": [{ "name": "the cat sat on the mat", "tokens": ["the", "cat", "sat", "on", "the", "mat"] }],',
    '  "heads": [',
    [head('LeCun', '"lecun"', 11), head('Xavier', '"xavier"', 21), head('Kaiming', '"kaiming"', 31), head('σ = 0.02', '{ "variance": 0.0004 }', 41)].join(',\n'),
    '  ]',
    '}',
  ]);
}
