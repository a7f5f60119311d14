// What the model views get of a long run without computing one: a Llama-3.2-1B-shaped header (16
// layers × 32 heads × 8,192 tokens), every head's statistics and 64 × 64 thumbnails, seeded.
import { scanModel } from '../../src/core/model-attention/scan.js';
import type { ModelViewData } from '../../src/core/model-attention/data.js';
import type { HeadStats } from '../../src/core/tensors/head-stats.js';
import { memoryAttention, randomAttention } from './model-fixture.js';
import { seeded } from './random.js';

export function longRunData(layers = 16, heads = 32, n = 8192, seed = 34): ModelViewData {
  const rand = seeded(seed);
  const small = scanModel(memoryAttention(randomAttention(1, 1, 8, 1), 1, 1, 8));
  const thumb = 64;
  const stats: HeadStats[] = [];
  for (let layer = 0; layer < layers; layer++) {
    for (let head = 0; head < heads; head++) {
      stats.push({ layer, head, entropy: 9 * rand(), confidence: rand(), distance: n * rand() / 2, previousToken: rand() / 10, duplicateToken: rand() / 20, induction: head % 5 ? rand() / 50 : null, sink: rand() });
    }
  }
  const thumbnails = new Float32Array(layers * heads * thumb * thumb).map(() => rand());
  return { ...small, header: { ...small.header, layers, heads, tokens: n, thumb, stats, tokenTexts: Array.from({ length: n }, (_, i) => `t${i % 97}`) }, thumbnails };
}
