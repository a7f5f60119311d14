// attn render --view rollout to a PNG above 1,024 tokens with a message that says why: it said
// only "nothing to draw"; the command and the PNG encoder (heatmapPng in src/cli/render/model-views.ts)
// now give rolloutRefusal's sentence, and nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { heatmapPng } from '../../../../src/cli/render/model-views.js';
import { rolloutRefusal } from '../../../../src/core/tensors/rollout.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { memoryAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { attn } from '../../../support/cli.js';
import { tempDir } from '../../../support/temp-dir.js';

test('a rollout PNG of 1,025 tokens says the rollout is computed up to 1,024 tokens, exit 1, no file', async () => {
  const dir = tempDir('attn-rollout-');
  const n = 1025, file = join(dir, 'long.safetensors'), out = join(dir, 'x.png');
  writeSafetensors(file, new Float32Array(n * n).fill(1 / n), 1, 1, n);
  const r = await attn('render', file, '--view', 'rollout', '--out', out);
  assert.equal(r.code, 1);
  assert.equal(r.err, `${file}: ${rolloutRefusal(1, n)}`);
  assert.match(r.err, /the rollout is computed up to 1,024 tokens; this file has 1,025/);
  assert.ok(!existsSync(out));
});

test('heatmapPng without a rollout says why there is none, not "nothing to draw"', () => {
  const n = 1025;
  const a = memoryAttention(new Float32Array(n * n).fill(1 / n), 1, 1, n);
  const { header, thumbnails } = scanModel(a);
  const options = { theme: makeTheme('light'), width: 600, interactive: false, layer: 0, head: 0, token: 0, stat: 'entropy', sort: false, k: 3 } as Parameters<typeof heatmapPng>[2];
  assert.throws(() => heatmapPng({ header, thumbnails }, 'rollout', options), (e: Error) => e.message === `mem.safetensors: ${rolloutRefusal(1, n)}`);
});
