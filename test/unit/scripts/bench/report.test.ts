// bench:model's table: columns aligned, each row's references, ratios and agreement beside our runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layout, table } from '../../../../scripts/bench/report.js';
import type { Measured } from '../../../../scripts/bench/goals.js';

test('columns are padded to their widest cell, names left and figures right; a note row keeps the first two columns', () => {
  assert.deepEqual(layout([['shape', 'n', 'who', 'ms'], ['gpt2', '128', 'attn run', '5'], ['', '', 'a note wider than every column']]),
    ['shape  n    who       ms', 'gpt2   128  attn run   5', '            a note wider than every column']);
});

test('a measured row prints our run, numpy, torch and sgemm, the ratios and the agreement', () => {
  const m: Measured = {
    shape: 'gpt2', label: 'GPT-2 small', n: 128, flops: { matrices: 20e9, attention: 1e9, head: 1e9, total: 22e9 },
    ours: [{ precision: 'f32', loadMs: 200, tokenizeMs: 10, forwardMs: 1100, wallMs: 1500, peakMB: 400 }],
    ref: {
      threadpools: [], loadMs: 700, numpy: { forwardMs: 550, firstMs: 600, calls: 3 }, sgemm: { gflops: 55, shapes: [] }, finite: true,
      torch: { forwardMs: 440, firstMs: 590, threads: 1, version: '1.13' }, agree: { logits: 2e-6, logitScale: 2.3, attention: 3e-7 },
      ours: [{ label: 'attn f32', layer0: 1.5e-7, layer11: 2e-7 }], peakMB: 980,
    },
  };
  const text = table([m]).join('\n');
  assert.match(text, /attn run f32 +200 +10 +1100 +1500 +400 +20\.0/);
  assert.match(text, /numpy f32 forward \(best; first\) +700 +— +550 \(600\)/);
  assert.match(text, /torch 1\.13 f32, 1 thread \(warm best; first\) .* 440 \(590\)/);
  assert.match(text, /ratios: ours f32 \/ numpy forward 2\.00×, \/ torch warm 2\.50×, kernel \/ numpy sgemm 0\.36/);
  assert.match(text, /numpy↔torch max \|Δ\| last logits 2\.0e-6 .*numpy↔attn f32 attention L0 1\.5e-7 L11 2\.0e-7/);
});
