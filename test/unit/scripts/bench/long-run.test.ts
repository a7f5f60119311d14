// bench:long-run's command line, its checkpoint's shape, its text and its report: the long run judged
// against the goals (peak ≤ weights + 1.5 GB, grid ≤ 2 s, head ≤ 300 ms), the other cases beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchShape, longText, readLongRunOptions, report, type CaseResult } from '../../../../scripts/bench/long-run.js';
import { modelConfig } from '../../../../scripts/bench/shapes.js';

test('by default 8,192 tokens keeping q and k beside 4,096 dense; --quick, --tokens and --dense change it; the rest is one sentence', () => {
  assert.deepEqual(readLongRunOptions([]), { quick: false, tokens: 8192, dense: 4096 });
  assert.deepEqual(readLongRunOptions(['--quick', '--tokens', '2048', '--dense', '1024']), { quick: true, tokens: 2048, dense: 1024 });
  assert.match(readLongRunOptions(['--tokens', '0']) as string, /--tokens takes a whole number of tokens from 1 to 131072, got "0"/);
  assert.match(readLongRunOptions(['--dense']) as string, /--dense takes a whole number/);
  assert.match(readLongRunOptions(['--layers', '2']) as string, /unknown option "--layers"/);
});

test('the checkpoint is the Llama-3.2-1B shape, its llama3 RoPE and tied head; --quick keeps two of its layers in a folder of their own', () => {
  const whole = benchShape(false), quick = benchShape(true);
  const c = modelConfig(whole);
  assert.deepEqual([c.layers, c.heads, c.kvHeads, c.headDim, c.dModel, c.ffn, c.vocab], [16, 32, 8, 64, 2048, 8192, 128256]);
  assert.equal(whole.dtype, 'BF16');
  assert.deepEqual(whole.config.rope_scaling, { factor: 32.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' });
  assert.deepEqual([whole.config.rope_theta, whole.config.max_position_embeddings, whole.config.tie_word_embeddings], [500000, 131072, true]);
  assert.equal(modelConfig(quick).layers, 2);
  assert.notEqual(quick.key, whole.key);
});

test('the text is long enough for the tokens asked, and no two of its paragraphs are the same', () => {
  const text = longText(8192);
  const paragraphs = text.split(/(?=\b\d+\. )/);
  assert.ok(text.length > 8192 * 4);
  assert.equal(new Set(paragraphs).size, paragraphs.length);
});

test('the report judges the long run against the goals and sets the other cases beside it', () => {
  const run = (tokens: number, peakMB: number, gridMs: number): CaseResult & { peakMB: number; sampledMB: number } => ({
    tokens, attention: 'qk', loadMs: 1, forwardMs: 2, runMs: 3, gridMs, passes: 512, pictureMs: 40, pictureRes: 256, windowMs: 100, tileNote: 'no tiles in this build', peakMB, sampledMB: peakMB - 1,
  });
  const lines = report(2355, [
    { tokens: 4096, attention: 'dense', refused: 'a run of 4096 tokens needs about 71.7 GB', peakMB: 229, sampledMB: 228 },
    run(4096, 3000, 5), run(8192, 4000, 2500),
  ], 8192);
  assert.match(lines[0], /weights as stored: 2355 MB; peak goal ≤ 3891 MB/);
  assert.ok(lines.some((l) => l.startsWith('dense | 4096 | refused: a run of 4096 tokens needs about 71.7 GB')));
  assert.ok(lines.includes('✗ qk 8192 tokens: peak 4000 MB = weights + 1.61 GB (goal ≤ weights + 1.5 GB)'), lines.join('\n'));
  assert.ok(lines.includes('✗ qk 8192 tokens: grid 2500 ms after the forward (goal ≤ 2000 ms)'));
  assert.ok(lines.includes('✓ qk 8192 tokens: head 140 ms: picture 40 + window 100 (goal ≤ 300 ms)'));
  // The 4,096-token run keeping q and k is beside it, not judged.
  assert.equal(lines.filter((l) => /^[✓✗]/.test(l)).length, 3);
});

test('a run whose heads open as maps: the map counts in the head\'s time, its tiles beside the generic path\'s', () => {
  const mapped = { tokens: 8192, attention: 'qk', loadMs: 1, forwardMs: 2, runMs: 3, gridMs: 900, passes: 512, pictureMs: 2, pictureRes: 256, windowMs: 40, tileMs: 600, mapMs: 30, sinks: 2, columnMaxMB: 16, deepTileMs: 6, referenceTileMs: 1500, peakMB: 3000, sampledMB: 2999 };
  const lines = report(2355, [mapped], 8192);
  assert.match(lines[0], /head \(picture \+ map \+ window \+ tile\) ≤ 300 ms/);
  assert.ok(lines[1].includes('map ms (sinks)') && lines[1].includes('level-0 tile ms') && lines[1].includes('generic tile ms'));
  assert.ok(lines.includes('qk | 8192 | 1.0 | 2.0 | 3.0 | 900 (512) | 2.0 (256) | 30 (2) | 40 | 600 | 6.0 | 1500 | 3000 (2999)'), lines.join('\n'));
  assert.ok(lines.includes('✗ qk 8192 tokens: head 672 ms: picture 2.0 + map 30 + window 40 + tile 600 (goal ≤ 300 ms)'), lines.join('\n'));
  assert.ok(lines.includes('  qk 8192 tokens: the head answer with its map 32 ms (picture 2.0 + map 30, 2 sinks); first coarse tile 600 ms (the generic reader path: 1500 ms); level-0 tile 6.0 ms; column maxima kept 16 MB'), lines.join('\n'));
});
