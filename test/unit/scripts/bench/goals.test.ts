// bench:model's goals: each checked on the float32 run where there is one, its figure beside the goal's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goals, judged, type Measured } from '../../../../scripts/bench/goals.js';
import type { Reference } from '../../../../scripts/bench/runs.js';

const ref = (numpyMs: number, sgemm: number): Reference => ({
  threadpools: [], loadMs: 1, numpy: { forwardMs: numpyMs, firstMs: numpyMs, calls: 3 }, sgemm: { gflops: sgemm, shapes: [] },
  finite: true, ours: [], peakMB: 1,
});
const flops = { matrices: 20e9, attention: 0, head: 0, total: 20e9 };
const run = (precision: string, forwardMs: number, wallMs: number, peakMB: number) => ({ precision, loadMs: 1, tokenizeMs: 1, forwardMs, wallMs, peakMB });

test('GPT-2 small at 128 tokens: every goal met by the float32 run, the float64 beside it not judged', () => {
  const m: Measured = { shape: 'gpt2', label: 'GPT-2 small', n: 128, flops, ours: [run('f64', 5000, 6000, 900), run('f32', 400, 1200, 700)], ref: ref(300, 60) };
  assert.equal(judged(m)?.precision, 'f32');
  const g = goals([m]);
  assert.deepEqual(g.map((x) => x.met), [true, true, true, true, true]);
  // 20 GFLOP in 0.4 s = 50 GFLOP/s, 83% of 60; 0.4 / 0.3 = 1.33×.
  assert.match(g[0].text, /kernel 50\.0 GFLOP\/s = 83% of numpy sgemm 60\.0 \(goal ≥ 60%\)/);
  assert.match(g[1].text, /forward 0\.40 s = 1\.33× numpy's 0\.30 s \(goal ≤ 1\.5×\)/);
  assert.match(g[4].text, /peak 0\.68 GB \(goal ≤ 0\.8 GB\)/);
});

test('a run past a goal is marked unmet with its figure', () => {
  const m: Measured = { shape: 'gpt2', label: 'GPT-2 small', n: 128, flops, ours: [run('f64 (default)', 5000, 6000, 900)], ref: ref(500, 60) };
  const g = goals([m]);
  assert.deepEqual(g.map((x) => x.met), [false, false, false, false, false]);
  assert.match(g[2].text, /forward 5\.00 s \(goal ≤ 0\.6 s\)/);
});

test('a refused run fails "runs" with the refusal, and the peak goals are per shape at 128 tokens', () => {
  const llama: Measured = { shape: 'llama', label: 'Llama', n: 128, flops, ours: [{ precision: 'f32', refused: 'over the budget of 3.0 GB', wallMs: 1, peakMB: 250 }] };
  assert.deepEqual(goals([llama]), [{ met: false, text: 'Llama, 128 tokens, f32: runs — refused: over the budget of 3.0 GB' }]);
  const qwen: Measured = { shape: 'qwen', label: 'Qwen', n: 128, flops, ours: [run('f32', 1000, 2000, 1700)] };
  assert.deepEqual(goals([qwen]).map((x) => [x.met, /goal ≤ 1\.6 GB/.test(x.text)]), [[false, true]]);
  assert.deepEqual(goals([{ ...qwen, n: 1024 }]), [], 'no peak goal at 1,024 tokens, no reference no ratio');
});
