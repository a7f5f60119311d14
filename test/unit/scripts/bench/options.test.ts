// bench:model's command line: narrowing by shape and length, a budget, and a sentence for what it cannot read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateS, readOptions } from '../../../../scripts/bench/options.js';

test('with no options every shape runs at 128 and 1,024 tokens within the default budget', () => {
  assert.deepEqual(readOptions([]), { shapes: ['gpt2', 'qwen', 'llama'], tokens: [128, 1024], budgetS: 1800 });
});

test('--shapes and --tokens narrow the run, in the bench\'s own order; --budget sets the seconds', () => {
  assert.deepEqual(readOptions(['--shapes', 'llama,gpt2', '--tokens', '1024,128,1024', '--budget', '90']), { shapes: ['gpt2', 'llama'], tokens: [128, 1024], budgetS: 90 });
});

test('--cli measures another build\'s attn.js', () => {
  assert.deepEqual(readOptions(['--cli', '/elsewhere/dist/attn.js', '--tokens', '128']), { shapes: ['gpt2', 'qwen', 'llama'], tokens: [128], budgetS: 1800, cli: '/elsewhere/dist/attn.js' });
  assert.match(readOptions(['--cli']) as string, /--cli needs a value/);
});

test('a shape, length or budget it cannot take is named in one sentence', () => {
  assert.match(readOptions(['--shapes', 'gpt3']) as string, /"gpt3" is not one of gpt2, qwen, llama/);
  assert.match(readOptions(['--tokens', '0']) as string, /--tokens takes whole numbers from 1 to 1024/);
  assert.match(readOptions(['--tokens', '2048']) as string, /--tokens/);
  assert.match(readOptions(['--budget', '-5']) as string, /--budget takes a number of seconds > 0/);
  assert.match(readOptions(['--tokens']) as string, /--tokens needs a value/);
  assert.match(readOptions(['--fast']) as string, /unknown option "--fast"/);
});

test('the expected seconds: each run at its measured rate or the fallback, and seven reference forwards', () => {
  // 100 GFLOP: one run measured at 10 GFLOP/s (10 s), one unmeasured at the fallback 5 (20 s), 7 × 100 / 50 (14 s).
  assert.equal(estimateS(100e9, [{ gflops: 10 }, { gflops: undefined }], 5, 50), 44);
});
