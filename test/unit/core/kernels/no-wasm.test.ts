// Where a Content-Security-Policy forbids compiling WebAssembly (a page or worker without
// 'wasm-unsafe-eval'), the matrix kernel is not used and the products run in plain JavaScript:
// the examples' analyses must come out bit for bit the same as with the kernel, in child processes
// alike but for the preload that refuses every compile (test/support/no-wasm-codegen.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../../../support/paths.js';

// Big enough for the kernel (over 512 multiply-adds a product), and the training and projection views.
const EXAMPLES = ['long-64-tokens-8-heads.attn.json', 'learn-value.attn.json', 'seed-projection-512-64.attn.json', 'apple-watch-lens.attn.json'];

function analyses(preload: string[]): { wasm: boolean; analyses: Record<string, string> } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', ...preload, 'test/support/analyses-json.ts', ...EXAMPLES],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ATTN_THREADS: '1' } });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as { wasm: boolean; analyses: Record<string, string> };
}

test('with WebAssembly refused as a CSP refuses it, the examples\' analyses are bit for bit those of the kernel', () => {
  const kernel = analyses([]);
  const refused = analyses(['--import', './test/support/no-wasm-codegen.ts']);
  assert.equal(kernel.wasm, true, 'the kernel runs where WebAssembly is allowed');
  assert.equal(refused.wasm, false, 'the kernel is not used where compiling is refused');
  for (const file of EXAMPLES) {
    assert.match(kernel.analyses[file], /, drawn$/, `${file} has a result`);
    assert.equal(refused.analyses[file], kernel.analyses[file], file);
  }
});
