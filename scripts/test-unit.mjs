// npm run test:unit: every test/unit/**/*.test.ts in node's test runner. The tests mirror the sources
// folder for folder, and node 20's --test takes no glob of its own, so the files are listed here.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.isFile() && e.name.endsWith('.test.ts') ? [path] : [];
  }).sort();
}

// Some tests run the built bundles (the workers, the webviews' scripts): without them they would time
// out with nothing to say why, so a checkout that has none yet builds them first (npm run test:unit
// always builds; this is for `node scripts/test-unit.mjs` run alone).
const BUNDLES = ['extension.js', 'analysis-worker.js', 'scan-worker.js', 'webview.js', 'model-webview.js', 'notebook-renderer.js', 'attn.js'];
if (BUNDLES.some((b) => !existsSync(join('dist', b)))) {
  console.log('test-unit: dist/ lacks a bundle, building it first (node scripts/build.mjs)');
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const files = testFiles('test/unit');
// The runs' tokenizer cache goes to a folder of this run's own, never the user's ~/.cache: a test
// then starts from no cache, whatever an earlier run or another user left.
const cache = process.env.ATTN_CACHE_DIR ?? mkdtempSync(join(tmpdir(), 'attn-cache-'));
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...process.argv.slice(2), ...files], { stdio: 'inherit', env: { ...process.env, ATTN_CACHE_DIR: cache } });
if (process.env.ATTN_CACHE_DIR === undefined) rmSync(cache, { recursive: true, force: true });
process.exit(run.status ?? 1);
