// What the worker service and the injected test hooks promise of the host's sources, read as text:
// no file under src/host but the service (src/host/workers/service.ts) starts a thread, so every
// worker's lifetime is the service's (on the web, where there is no worker_threads, the one Web
// Worker lane, src/host/web/web-worker-lane.ts, starts the browser's Worker); and the model run (src/host/checkpoint-run) imports nothing from the
// panel (src/host/panel), so no test switch or panel helper crosses between the two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../../../support/paths.js';

const HOST = join(ROOT, 'src', 'host');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

/** The files a source imports (static, dynamic or re-exported), resolved against its folder. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm)]
    .map((m) => m[1] ?? m[2] ?? m[3]);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s));
}

test('no file under src/host but the worker service starts a worker thread (and, on the web, the Web Worker lane)', () => {
  const starters = sources(HOST)
    .filter((f) => /\bnew\s+Worker\s*\(/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f));
  assert.deepEqual(starters, [join('src', 'host', 'web', 'web-worker-lane.ts'), join('src', 'host', 'workers', 'service.ts')]);
  // The web lane's Worker is the browser's global, never worker_threads'.
  assert.doesNotMatch(readFileSync(join(HOST, 'web', 'web-worker-lane.ts'), 'utf8'), /worker_threads/);
  // Nor does any other host file take Worker from worker_threads (to start one under another name).
  const takers = sources(HOST)
    .filter((f) => /import\s*\{[^}]*\bWorker\b[^}]*\}\s*from\s*['"]node:worker_threads['"]/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f));
  assert.deepEqual(takers, [join('src', 'host', 'workers', 'service.ts')]);
});

test('the model run imports nothing from the panel', () => {
  const panel = join(HOST, 'panel');
  const files = sources(join(HOST, 'checkpoint-run'));
  assert.ok(files.length > 5, 'the model run\'s sources were found');
  for (const file of files) {
    const crossing = importsOf(file).filter((i) => i === panel || i.startsWith(panel + '/'));
    assert.deepEqual(crossing, [], relative(ROOT, file));
  }
});
